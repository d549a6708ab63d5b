# The variants for three, six and two players (docs/RULES.md, issue 26), as
# data in the form of euchre.rules' VARIANTS: each one's differences from
# its _BASE, its score table and its options with their defaults.
#
# Kept apart from euchre.rules so that a device holds them only when one of
# them is played: ``Rules`` loads this module for the first such game (and,
# on the host, for a variant's other name, before euchre.names). The
# sources, cited by URL in docs/RULES.md:
#
# * three (cutthroat): 52pickup.net, rarepike.com, gamerules.com,
#   worldeuchrefederation.com, Brisbane's American Card Player (1866);
# * six (two sides of three, partners alternating): reference.com's two
#   six-handed pages, with Classic's rules where they say "the same";
# * two (Keller, The Game of Euchre, 1887, ch. VII): Keller, Hoyle's Games
#   Modernized, Cassell's, and the 24-card two-player rules.

# Their canonical names, in menu order (euchre.rules' MORE_VARIANTS on the
# host).
NAMES = ("three", "six", "two")

VARIANTS = {
    # The maker plays alone against the other two, each player for himself:
    # 1 for three or four tricks, 3 for all five (option march: 2), each
    # defender 2 when the maker is euchred. Option alone: a declared lone
    # hand, whose march scores 4. A renege costs the offender 2 (4 when the
    # maker declared alone), as in Five-Handed; the game is Call-Your-
    # Partner's (the highest at or over the target wins, ties share; option
    # play_on). Option raise_target (off: not in the log, euchre.rules
    # LATER): two or more at the target after a hand raise it by 10. Option
    # joker (rule6.info, pagat.com's King Cut-Throat): the joker as the
    # highest trump, a joker turned up named by the dealer (as Classic's).
    "three": dict(
        title="Three-Handed Euchre",
        num_players=3, teams=False, alone=False, renege="offender", end="highest", perm_upcard="dealer_names",
        later=("raise_target", "joker"),
        score=(1, 3, 1, 4, 0, 0, 2, 0, 2, 4),
        options=dict(winning_score=10, std=False, min_rank=9, march=3, alone=False,
                     play_on=False)),
    # Two sides of three, seats 0 2 4 against 1 3 5; 32 cards (option
    # jokers: the two jokers on top of the trumps; joker: one, 33 cards); a
    # lone maker's two partners sit out and a lone march scores 5 (option
    # lone_euchre_4, as Classic's: a euchred one gives 4); otherwise Classic.
    "six": dict(
        title="Six-Handed Euchre",
        num_players=6, min_rank=7, perm_upcard="dealer_names", later=("no_late_loners", "joker", "lone_euchre_4"),
        score=(1, 2, 1, 5, 0, 0, 2, 0, 2, 4),
        options=dict(winning_score=10, std=False, jokers=False)),
    # Keller's two-handed game: 32 cards (option min_rank 9: 24), the
    # non-dealer orders up or passes, the dealer takes it up or passes, then
    # each may make another suit; the non-dealer leads. No lone hands: 1 for
    # three or four tricks, 2 for all five, a euchre 2 to the other player;
    # game 5. Option joker (Keller: "the joker ... may be played"); option
    # same_dealer: both pass twice, the same dealer deals again.
    "two": dict(
        title="Two-Handed Euchre",
        num_players=2, teams=False, min_rank=7, alone=False, perm_upcard="dealer_names", later=("same_dealer",),
        score=(1, 2, 0, 0, 0, 0, 2, 0, 2, 2),
        options=dict(winning_score=5, std=False, min_rank=7, joker=False)),
}
