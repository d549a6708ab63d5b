# Input events: the small ints the button and encoder adapters produce and the
# UI core consumes. Auto-repeat of a held UP/DOWN arrives as more UP/DOWN.

UP = 1
DOWN = 2
OK = 3
BACK = 4
OK_LONG = 5      # OK held 600 ms or more
BACK_LONG = 6    # BACK held 600 ms or more: undo
BACK_DOWN = 7    # BACK's press edge (its short event comes on release): a
                 # bid's pass acts on it at once (bower.ui.App.handle)
