"""Tests of hintline.explain, `hintline explain` and `hintline usage`."""
