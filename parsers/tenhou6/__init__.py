"""tenhou.net/6 JSON (FORMATS.md B): sniff, read and write, kyoku by kyoku."""
