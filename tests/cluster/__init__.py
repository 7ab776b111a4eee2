"""Test helpers that start real cluster software on the test machine (see slurm.py)."""
