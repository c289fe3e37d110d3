"""`python -m bench [section ...]`: print the benchmark table (bench/sections.py lists them)."""

import sys

from bench.sections import main

sys.exit(main(sys.argv[1:]))
