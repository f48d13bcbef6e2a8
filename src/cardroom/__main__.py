from cardroom.cli import main

raise SystemExit(main())
