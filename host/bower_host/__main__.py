from bower_host.cli import main

raise SystemExit(main())
