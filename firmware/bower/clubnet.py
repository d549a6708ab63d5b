# A phone's link to the club night's server (host/CLUB.md "Phones"): the
# table it joined with the table's code, the round the server offers it
# (kept as a pushed round is: the store's club setup, bower.club starts
# it), and the queue of round logs to deliver.
#
# No I/O of its own: the board's script (app.js; a CPython HTTP client in
# the tests) takes a request from next(), sends it and gives the reply to
# answer(). A request is [method, path relative to the server's root,
# token or None, JSON body or None]; answer() takes the reply to the last
# one next() gave. A club round's log is sent whole while
# the game is not marked synced, and marked synced when the server says it
# holds that CRC: the queue is the store's own games (kept through power
# cuts and full flash as every game is), and a copy sent again after a lost
# reply is one the server's gate already has ("duplicate"). Waits after a
# failure grow (RETRY_MS); a 503 or 429 is a failure, a 4xx a refusal said
# on the page (the log is not sent again until it grows).

import json

from bower.store import extra

POLL_MS = 10000
RETRY_MS = (1000, 2000, 5000, 10000, 20000)
_HEAD = 1500    # bytes of a log read for its header's club object (a header is about 600)


class Net:
    def __init__(self, store):
        self.st = store
        self.path = store.club_path + ".net"
        try:
            self.claim = store.rec_file(self.path)   # {"night", "table", "token", "round"} or None
        except ValueError:
            self.claim = None
        self.tokens = {}    # round -> its token (asked again after a reload)
        self.due = 0        # when the next request may go (ms)
        self.polled = None  # when the round was last asked (None: not yet)
        self.poll = POLL_MS
        self.fails = 0
        self.refused = {}   # game id -> CRC the server refused (not sent again unless it changes)
        self.heads = {}     # game id -> (round, table, night) of its club object, or None
        self.said = ""      # the last word for the page (what happened, or why not)
        self.out = ("", "")   # (game id, CRC) of the log the last result request sends

    def joined(self):
        return self.claim is not None

    def join(self, code, device):
        return ["POST", "api/join", None, json.dumps({"code": code, "device": device})]

    def _round_of(self, gid, size):
        # The (round, table, night) of a game's club header (None: not a round).
        if gid not in self.heads:
            h = None
            try:
                b = self.st.read(gid, 0, min(size, _HEAD))
                line = b.split(b"\n", 1)[0]
                if b'"club"' in line:
                    c = json.loads(line)[0].get("club") or {}
                    h = (c.get("round"), c.get("table"), c.get("night"))
            except (ValueError, OSError, IndexError, AttributeError):
                pass
            self.heads[gid] = h
        return self.heads[gid]

    def pending(self):
        # The club round logs of the joined night and table not yet held
        # by the server: [(game id, size, crc, round)], oldest first.
        c = self.claim
        out = []
        if c is None:
            return out
        for e in extra("past").each(self.st):
            gid, size, crc, synced = e[0], e[1], e[2], e[4]
            if synced or self.refused.get(gid) == crc or not size:
                continue
            h = self._round_of(gid, size)
            if h is not None and h[1] == c["table"] and h[2] == c["night"]:
                out.append((gid, size, crc, h[0]))
        return out

    def next(self, now):
        # The request to send now, or None (not joined, or nothing due).
        c = self.claim
        if c is None or now < self.due:
            return None
        for gid, size, crc, rnd in self.pending():
            tok = self.tokens.get(rnd)
            if tok is None:
                return ["GET", "api/round?round=%d" % rnd, c["token"], None]
            log = self.st.read(gid, 0, size)
            self.out = (gid, crc)
            return ["POST", "api/result", tok, json.dumps({"game": gid, "crc": crc, "log": log.decode()})]
        if self.polled is None or now - self.polled >= self.poll:
            return ["GET", "api/round", c["token"], None]
        return None

    def answer(self, req, status, text, now):
        # The reply to ``req`` (status 0: no reply at all: offline, cut off).
        if status == 0 or status == 429 or status >= 500:
            self.due = now + RETRY_MS[min(self.fails, len(RETRY_MS) - 1)]
            self.fails += 1
            if status == 0:
                self.said = "offline: results kept, sent when back"
            elif status != 429:
                self.said = "server busy: trying again"
            return
        self.fails = 0
        self.due = now
        try:
            d = json.loads(text)
        except ValueError:
            d = {}
        if type(d) is not dict:
            d = {}
        path = req[1]
        if status == 401:
            if path != "api/join":
                self._forget()
            self.said = d.get("error") or "refused"
            return
        if status >= 400:
            self.said = d.get("error") or "refused (%d)" % status
            if path == "api/result":
                gid, crc = self.out
                self.refused[gid] = crc
            elif path == "api/round":
                self.polled = now       # (the next round's seating is not known yet: ask again later)
            elif path.startswith("api/round?"):     # (an old round the server does not open: its logs wait)
                rnd = int(path.rsplit("=", 1)[1])
                for p in self.pending():
                    if p[3] == rnd:
                        self.refused[p[0]] = p[2]
            return
        if path == "api/join":
            self.claim = {"night": d["night"], "table": d["table"], "token": d["token"]}
            self.st.rec_file(self.path, self.claim)
            self.polled = None
            self.said = "joined: table %d" % d["table"]
        elif path.startswith("api/round"):
            self.tokens[d["round"]] = d["token"]
            if path == "api/round":
                self.polled = now
                self._offered(d["setup"])
        elif path == "api/result":
            gid, crc = self.out
            if d.get("crc") == crc:
                extra("past").mark_synced(self.st, gid, crc)
                self.said = "sent: " + (d.get("note") or d.get("status") or "stored")

    def offered(self):
        # The round the server last offered (0: none yet).
        return (self.claim or {}).get("round", 0)

    def _offered(self, setup):
        # A round the server offers for the first time: kept as a pushed
        # one is (the home menu's Club round). Offered again, it is left as
        # the device keeps it (a round's end moves the setup on).
        c = self.claim
        if setup["round"] == c.get("round"):
            return
        self.st.set_club(setup)
        c["round"] = setup["round"]
        self.st.rec_file(self.path, c)
        self.st.warnings.append("club round %d, table %d" % (setup["round"], setup["table"]))

    def _forget(self):
        # The organiser reset this table (or the night is gone): not joined.
        self.claim = None
        self.tokens = {}
        try:
            self.st.fs.remove(self.path)
        except OSError:
            pass
        self.st.sync()
