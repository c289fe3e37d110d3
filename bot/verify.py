"""The record checker on the command line: `python -m bot.verify RECORD_FILE`.

Prints the checker's one sentence (bot/records/verify.py) and exits 0 when the record holds,
1 when it does not or cannot be read.  Whatever the file holds (any bytes, a byte order
mark, CRLF line ends, a line of megabytes), the answer is one sentence, never a traceback:
the file is read as bytes and `verify_bytes` decides what they say.  Imports only the pure
record and game packages, so the checker can be run without the bot's dependencies on Discord.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.records.format import quote
from bot.records.verify import verify_bytes


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("Usage: python -m bot.verify RECORD_FILE")
        return 1
    try:
        data = Path(argv[0]).read_bytes()
    except OSError as exc:
        print(f"Cannot read {quote(argv[0])}: {exc.strerror}.")
        return 1
    verdict = verify_bytes(data)
    print(verdict.sentence)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
