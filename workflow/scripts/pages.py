# %% [markdown]
# # The pages that quote numbers, rendered whole from workflow/templates/ (workflow/pagegen)

# %%
import sys
from pathlib import Path

from ssi.io import atomic_write_text

# the page generator lives with the workflow, beside this script's folder
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821
from pagegen.pages import write  # noqa: E402

root = Path(snakemake.scriptdir).resolve().parents[1]  # noqa: F821
written = [str(path.relative_to(root)) for path in write(root)]
for name in written:
    print(f"wrote {name}")
atomic_write_text(snakemake.log[0], f"written: {', '.join(written) or 'none (all current)'}\n")  # noqa: F821
