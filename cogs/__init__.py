"""discord.py extensions: they translate Discord events into service calls and back."""
