# Boots Bower: the pins come from /board.json (bower deploy copies it);
# Ctrl-C from mpremote stops the app and leaves to the REPL. The modules
# load from /lib/bower.pak when it is there (lib/bowerpak.py says why),
# else from /lib.
try:
    import bowerpak
    bowerpak.mount()
except ImportError:
    pass

from bower import board

board.run()
