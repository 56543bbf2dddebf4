import sys

from kansa.cli import main

sys.exit(main())
