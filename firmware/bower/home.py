# The home menu, apart from bower.screens: the device boots to it without
# loading the other menus (they load while it is idle, or on the first OK).

from bower.menu import Menu


def home(app):
    items = [("New game", "new"), ("Settings", "settings"), ("About", "about")]
    if app.store.has("club"):
        items.insert(1, ("Club round", "club"))   # one was pushed (bower.club)
    if app.game is not None and not app.game.result:
        items.insert(0, ("Continue game", "continue"))
    return Home("Bower", items, _pick)


class Home(Menu):
    home = True


def _pick(app, v):
    if v == "new":
        from bower.newgame import begin   # (the setup: its own module)
        begin(app)
    else:
        from bower.screens import home_pick
        home_pick(app, v)
