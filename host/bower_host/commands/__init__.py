"""The ``bower`` command's commands, one module per command as mpremote keeps
its commands: each has ``register(subparsers)``, which adds its parsers and
sets ``func`` on them, and the ``cmd_*`` functions they run. They parse,
call the rooms (the library, the link, the club, the league, the site) and
print; the rooms know nothing of argparse. ``bower_host.cli``'s
``COMMAND_MODULES`` lists them (tests/host/test_commands_package.py checks
that every command is here and listed).
"""
