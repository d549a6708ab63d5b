# Boots Bower: the pins come from /board.json (bower deploy copies it);
# Ctrl-C from mpremote stops the app and leaves to the REPL.
from bower import board

board.run()
