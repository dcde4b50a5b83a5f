"""Analysis tools for Stack Back (balance scenes)."""
