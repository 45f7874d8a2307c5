"""Tests of hintline.integrations.logging (stdlib: always available)."""
