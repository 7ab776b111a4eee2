"""Helpers the tests share: the quick workflow run, reference implementations, machine facilities."""
