"""Session fixtures that start real services (one module per service, loaded by conftest)."""
