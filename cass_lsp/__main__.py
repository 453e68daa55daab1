import sys

from cass_lsp.cli.main import main

sys.exit(main())
