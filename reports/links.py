"""Keys that tie a finding in the report to its dispute packet."""


def finding_key(file: str, game: int, index: int) -> str:
    """The key of a finding: the file as the report names it, the game's number in the file, and the
    finding's number in the game (both from 0)."""
    return f"{file}#{game}.{index}"
