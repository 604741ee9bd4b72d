"""Entry point of the frozen bundle: the same CLI as `python -m appliance`."""

import sys

from appliance.cli import main

if __name__ == "__main__":
    sys.exit(main())
