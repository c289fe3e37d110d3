"""The record checker on the command line: `python -m bot.verify RECORD_FILE`.

Prints the checker's one sentence (bot/records/verify.py) and exits 0 when the record holds,
1 when it does not or cannot be read.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.records.verify import verify_text


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("Usage: python -m bot.verify RECORD_FILE")
        return 1
    try:
        text = Path(argv[0]).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"Cannot read {argv[0]}: {exc.strerror}.")
        return 1
    verdict = verify_text(text)
    print(verdict.sentence)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
