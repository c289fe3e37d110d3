"""Boneyard: the application layer (importable without a Discord connection)."""
