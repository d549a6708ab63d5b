# The phases of a hand and who acts: the constants ``euchre.hand`` and the
# modules that extend a hand (``euchre.cardmode``, ``euchre.why``,
# ``euchre.bot``, ``euchre.quick``) share. A leaf: it imports nothing, so those modules import
# it and the hand without the hand importing them back at module level.
# ``euchre.hand`` re-exports every name here.

# ``Hand.current_player()`` besides a seat.
CHANCE = -1      # a deal, or Five-Handed's turned card
TABLE = -2       # a table-mode input any seat may report (``won 2``)
TERMINAL = -3    # the hand is over

# ``Hand.phase``. (Their names, for messages, are euchre.why's PHASE_NAMES.)
P_DEAL, P_UP, P_DECLARE, P_NAME, P_TURN, P_BID1, P_BID2, P_DEFEND, P_MAKER, \
    P_DISCARD, P_GIVE, P_GIVEBACK, P_THROWIN, P_PLAY, P_REVEAL, P_DONE, P_NOTRICK, \
    P_QPARTNER, P_QUICK = range(19)
# (P_QPARTNER and P_QUICK: a hand entered quick, euchre.quick: the maker's
# partner, then how the hand ended.)

# ``Hand.result`` once the hand is over.
SCORED = 0
THROWN_IN = 1    # nothing scores, the deal passes left
REDEAL = 2       # nothing scores, the same dealer deals again
