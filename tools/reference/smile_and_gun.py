#!/usr/bin/env python3
"""With a Smile & a Gun, written by hand: a speed reference for the engine.

Plays complete random 2-player games of the base game with Shadow card
The Badge and Infusion card Second Chance -- the game that

    rulebook simulate rules/smile_and_gun --option shadow=the-badge \\
        --option infusion=second-chance

plays -- following the rules `rules/smile_and_gun/` implements (flow.rules,
the two cards' rules, the YAML data and ASSUMPTIONS.md). Every decision the
engine asks is asked here with the same legal options, and a random player
picks uniformly among them, as the engine's RandomAgent does. A decision with
one legal option is taken without asking and is not counted, as in the
engine. Games do not replay the engine's histories (one generator serves
the dice, the bag and the choices here), but they are the same game: driven
by an engine game's dice, bag draws and chosen labels, this code reaches the
same decisions with the same numbers of options and ends in the same state
(checked on tens of thousands of seeds, short cube supplies and an empty bag
included).

Nothing is simplified for this pair of cards. What the other twelve Shadow
cards and eight Infusion cards would add is left out, and so is the
Guardian, a side that never holds a cube unless its own card is in play.

Standard library only; nothing from interpreter/.

    python tools/reference/smile_and_gun.py --games 2000 --seed 0

prints one JSON line: games, seconds, games_per_second, decisions (the
total over all games), wins (per seat, and "tie" for no winner) and
mean_scores (per seat). `play(seed)` plays one game and returns its winner,
scores and number of decisions.
"""
import argparse
import json
import random
import time

# ---------------------------------------------------------------- the board
# Districts in the order of the `city` track: the outer ring clockwise from
# the Docks, Downtown last.
DOCKS, MARKET, HEIGHTS, PARK, CATHEDRAL, THEATRE, RAILYARD, WAREHOUSES, DOWNTOWN = range(9)
DISTRICTS = 9
RING = 8
CAPACITY = (2, 2, 2, 2, 2, 2, 2, 2, 3)  # Control tokens a district holds
CORNERS = (DOCKS, HEIGHTS, CATHEDRAL, RAILYARD)

# The twelve street spaces clockwise (s0 = "0/12" ... s11 = "11/23"); each
# faces a row or column of districts, nearest first.
FACES = (
    (DOCKS, WAREHOUSES, RAILYARD),      # s0
    (MARKET, DOWNTOWN, THEATRE),        # s1
    (HEIGHTS, PARK, CATHEDRAL),         # s2
    (HEIGHTS, MARKET, DOCKS),           # s3
    (PARK, DOWNTOWN, WAREHOUSES),       # s4
    (CATHEDRAL, THEATRE, RAILYARD),     # s5
    (CATHEDRAL, PARK, HEIGHTS),         # s6
    (THEATRE, DOWNTOWN, MARKET),        # s7
    (RAILYARD, WAREHOUSES, DOCKS),      # s8
    (RAILYARD, THEATRE, CATHEDRAL),     # s9
    (WAREHOUSES, DOWNTOWN, PARK),       # s10
    (DOCKS, MARKET, HEIGHTS),           # s11
)
STREETS = 12

# Orthogonal neighbours (action 6 puts a cube on both districts of a pair).
ADJACENT = (
    (HEIGHTS, PARK), (PARK, CATHEDRAL), (MARKET, DOWNTOWN), (DOWNTOWN, THEATRE),
    (DOCKS, WAREHOUSES), (WAREHOUSES, RAILYARD), (HEIGHTS, MARKET), (MARKET, DOCKS),
    (PARK, DOWNTOWN), (DOWNTOWN, WAREHOUSES), (CATHEDRAL, THEATRE), (THEATRE, RAILYARD),
)

INFLUENCE = (3, 2, 1)  # cubes on the 1st, 2nd and 3rd district a boss faces

# ---------------------------------------------------------------- sides
GREEN, YELLOW, BLUECOATS = 0, 1, 2  # the Guardian never has cubes with The Badge
SEATS = ("green", "yellow")
CUBES = 35                          # supply of each colour

# ---------------------------------------------------------------- tokens
HAT, GAMBLING, WEAPONS, CONTRABAND, INFUSION = range(5)  # also the bluecoats' order
BUSINESSES = (GAMBLING, WEAPONS, CONTRABAND)
MAJORITY = {GAMBLING: 5, WEAPONS: 4, CONTRABAND: 3}


def token(name, kind, value=0, blue=0):
    """A Control token: (name, kind, hat value, blue squares, bluecoats' rank).
    Tokens with the same name are the same choice for a player."""
    return (name, kind, value, blue, kind * 100 - value)


NAME, KIND, VALUE, BLUE, RANK = range(5)

INFUSION_TOKEN = token("infusion", INFUSION)
BAG = (
    [token("hat-2", HAT, 2, 0)] * 4 + [token("hat-3", HAT, 3, 1)] * 4 +
    [token("hat-4", HAT, 4, 1)] * 4 + [token("hat-5", HAT, 5, 2)] * 3 +
    [token("hat-6", HAT, 6, 2)] * 2 +
    [token("gambling", GAMBLING)] * 4 + [token("gambling", GAMBLING, 0, 1)] * 4 +
    [token("weapons", WEAPONS)] * 4 + [token("weapons", WEAPONS, 0, 1)] * 4 +
    [token("contraband", CONTRABAND)] * 4 + [token("contraband", CONTRABAND, 0, 1)] * 4
)  # the 41 tokens left in the bag once the 7 infusion tokens are dealt

DICE = 13
HEAT_BONUS_OPTIONS = DISTRICTS + 3 * DISTRICTS + 1  # 2 bluecoats / 1 cube of a colour / pass


class Game:
    """One game. Dice in the pool are kept as a count per face (pool[1..6])."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.random = self.rng.random
        self.decisions = 0
        self.cubes = [[0, 0, 0] for _ in range(DISTRICTS)]  # per district, per side
        self.supply = [CUBES, CUBES, CUBES]
        self.tokens = [[] for _ in range(DISTRICTS)]        # tokens waiting in each district
        self.bag = list(BAG)
        self.aside = []                                     # hats beside the board
        self.held_over = set()                              # unscored districts: not refilled
        self.pool = [0] * 7
        self.pool_size = 0
        self.at = [0, 0]                                    # each boss's street space
        self.shadow_at = 0
        self.first = GREEN
        self.action_dice = [[], []]
        # what lies in front of each player (all public)
        self.hats = [0, 0]           # hat points
        self.flipped = [0, 0]        # face-down tokens, 1 point each
        self.business = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]  # face-up tokens per kind
        self.infusions = [1, 1]      # face-up unspent infusion tokens (one dealt each)
        self.held = [1, 1]           # Control tokens in front of the player
        # the other five infusion tokens: one in each corner and one Downtown
        for d in CORNERS + (DOWNTOWN,):
            self.tokens[d].append(INFUSION_TOKEN)
        self.scores = [0, 0]
        self.winner = None

    # ------------------------------------------------------------ helpers
    def choose(self, n, name):
        """A random player's pick among n legal options (n >= 1), uniform like
        the engine's RandomAgent; a forced choice is not a decision. `name` is
        the engine's name for the decision (for subclasses that trace games)."""
        if n == 1:
            return 0
        self.decisions += 1
        return int(self.random() * n)

    def die(self):
        return int(self.random() * 6) + 1

    def roll_pool(self):
        pool = self.pool
        for f in range(7):
            pool[f] = 0
        for _ in range(self.pool_size):
            pool[self.die()] += 1

    def faces(self):
        pool = self.pool
        return [f for f in range(1, 7) if pool[f]]

    def place(self, side, d, n):
        """Cubes from a side's supply; a short supply places what it has."""
        have = self.supply[side]
        if n > have:
            n = have
        self.supply[side] = have - n
        self.cubes[d][side] += n

    def front(self, street):
        return FACES[street][0]

    def ring_from_shadow(self):
        start = self.front(self.shadow_at)  # never Downtown for a walking Shadow
        return [(start + i) % RING for i in range(RING)]

    def play(self):
        for _ in range(3):
            self.sizing_it_up()
            self.hitting_the_town()
            self.casting_the_shadow()
            self.dodging_the_heat()
            self.settling_the_score()
        self.final_scoring()
        return self

    # ------------------------------------------------------------ 1. Sizing It Up
    def sizing_it_up(self):
        self.pool_size = DICE
        self.roll_pool()
        self.action_dice = [[], []]
        self.fill_city()

    def fill_city(self):
        tokens, bag = self.tokens, self.bag
        order = [DOWNTOWN] + self.ring_from_shadow()
        targets = [d for d in order if d not in self.held_over and len(tokens[d]) < CAPACITY[d]]
        before = [len(tokens[d]) for d in targets]
        self.held_over = set()
        # one token per district in turn, so a short bag is shared out in this order
        for layer in (1, 2, 3):
            for d in targets:
                if CAPACITY[d] >= layer and len(tokens[d]) < layer:
                    if not bag:  # the hats set aside go back into the bag
                        bag.extend(self.aside)
                        self.aside = []
                        if not bag:
                            continue
                    i = int(self.random() * len(bag))
                    bag[i], bag[-1] = bag[-1], bag[i]
                    tokens[d].append(bag.pop())
        # bluecoats come to the districts that received new tokens only
        for d, n in zip(targets, before):
            if len(tokens[d]) > n:
                self.place(BLUECOATS, d, sum(t[BLUE] for t in tokens[d]))

    # ------------------------------------------------------------ 2. Hitting the Town
    def hitting_the_town(self):
        for _ in range(3):
            p = self.first
            self.town_turn(p)
            self.town_turn(1 - p)

    def town_turn(self, p):
        pool = self.pool
        # Second Chance is offered at two moments of the turn (before the draft,
        # again after each free reroll, and at the end: ASSUMPTIONS.md), while
        # p holds a token
        infusions = self.infusions
        if infusions[p]:
            self.second_chance_window(p, "turn_start")
        while self.free_reroll(p):
            if infusions[p]:
                self.second_chance_window(p, "turn_start")
        # draft: one option per (movement face, action face) pair
        faces = self.faces()
        pairs = [(m, a) for m in faces for a in faces if a != m or pool[m] > 1]
        m, a = pairs[self.choose(len(pairs), "draft")]
        pool[m] -= 1
        pool[a] -= 1
        self.pool_size -= 2
        self.action_dice[p].append(a)
        self.at[p] = (self.at[p] + m) % STREETS
        line = FACES[self.at[p]]
        for i in range(3):
            self.place(p, line[i], INFLUENCE[i])
        self.act(p, a)
        if infusions[p]:
            self.second_chance_window(p, "after_action")

    def free_reroll(self, p):
        """Every die in the pool shows one face: the player may reroll them all.
        True when the player did."""
        if self.pool_size <= 1 or max(self.pool) != self.pool_size:
            return False
        if self.choose(2, "reroll") != 0:    # reroll / pass
            return False
        self.roll_pool()
        return True

    def second_chance_window(self, p, window):
        """Second Chance at one of the turn's two windows: the player may spend
        an infusion token to reroll some pool dice, as often as tokens last."""
        while self.infusions[p] > 0:
            if self.choose(2, window) == 1:  # second-chance / pass
                return
            self.reroll_some(p)

    def reroll_some(self, p):
        """One decision: how many dice of each face to reroll (at least one),
        every such selection equally likely, as the engine's random agent
        picks; the chosen dice are rerolled where they lie."""
        self.infusions[p] -= 1                    # the token goes to the box
        self.held[p] -= 1
        pool = self.pool
        faces = self.faces()
        total = 1
        for f in faces:
            total *= pool[f] + 1
        k = self.choose(total - 1, "second_chance") + 1   # 0 would be no die at all
        picked = 0
        for f in faces:                           # k, read in mixed radix: a count per face
            k, c = divmod(k, pool[f] + 1)
            pool[f] -= c
            picked += c
        for _ in range(picked):
            pool[self.die()] += 1

    def act(self, p, v):
        cubes = self.cubes
        if v == 1:                                # add a bluecoat cube anywhere
            self.place(BLUECOATS, self.choose(DISTRICTS, "action"), 1)
        elif v <= 3:                              # move one of your cubes elsewhere
            sources = [d for d in range(DISTRICTS) if cubes[d][p]]
            if sources:
                k = self.choose(len(sources) * (DISTRICTS - 1), "action")
                src = sources[k // (DISTRICTS - 1)]
                dst = k % (DISTRICTS - 1)
                if dst >= src:
                    dst += 1
                cubes[src][p] -= 1
                cubes[dst][p] += 1
        elif v <= 5:                              # remove a cube of any colour
            options = [(d, s) for d in range(DISTRICTS) for s in (GREEN, YELLOW, BLUECOATS)
                       if cubes[d][s]]
            if options:
                d, s = options[self.choose(len(options), "action")]
                cubes[d][s] -= 1
                self.supply[s] += 1
        else:                                     # a cube on two adjacent districts
            d1, d2 = ADJACENT[self.choose(len(ADJACENT), "action")]
            self.place(p, d1, 1)
            self.place(p, d2, 1)

    # ------------------------------------------------------------ 3. Casting the Shadow
    def casting_the_shadow(self):
        v = self.faces()[0]                       # the die nobody drafted
        self.shadow_at = (self.shadow_at + v) % STREETS
        d = self.front(self.shadow_at)            # The Badge: every bluecoat there leaves
        self.supply[BLUECOATS] += self.cubes[d][BLUECOATS]
        self.cubes[d][BLUECOATS] = 0

    # ------------------------------------------------------------ 4. Dodging the Heat
    def dodging_the_heat(self):
        heat = [sum(self.action_dice[GREEN]), sum(self.action_dice[YELLOW])]
        if heat[GREEN] == heat[YELLOW]:
            return                                # a tie: no bonus
        # the lower heat may add 2 bluecoats to a district, or 1 cube of any
        # colour to a district, or pass (a random pick: who picks does not matter)
        k = self.choose(HEAT_BONUS_OPTIONS, "heat_bonus")
        if k < DISTRICTS:
            self.place(BLUECOATS, k, 2)
        elif k < HEAT_BONUS_OPTIONS - 1:
            side, d = divmod(k - DISTRICTS, DISTRICTS)
            self.place(side, d, 1)

    # ------------------------------------------------------------ 5. Settling the Score
    def settling_the_score(self):
        for d in self.ring_from_shadow() + [DOWNTOWN]:
            self.settle(d)
        # the first-player marker goes to the most tokens; on a tie it is handed over
        if self.held[GREEN] != self.held[YELLOW]:
            self.first = GREEN if self.held[GREEN] > self.held[YELLOW] else YELLOW
        else:
            self.first = 1 - self.first

    def settle(self, d):
        c = self.cubes[d]
        tokens = self.tokens[d]
        # the sides with cubes here, strongest first, in groups of equal counts
        counts = sorted({n for n in c if n}, reverse=True)
        ranks = [[s for s in (GREEN, YELLOW, BLUECOATS) if c[s] == n] for n in counts]
        if not ranks or len(ranks[0]) > 1:
            if tokens:                            # unscored: cubes and tokens stay
                self.held_over.add(d)
            return
        self.award(ranks[0][0], d)
        places = 3 if d == DOWNTOWN else 2
        for place in range(1, places):
            if not tokens or len(ranks) <= place:
                break                             # what is left stays in the district
            if len(ranks[place]) > 1:             # a tie: the tokens left leave play
                self.aside.extend(t for t in tokens if t[KIND] == HAT)
                tokens.clear()
                break
            self.award(ranks[place][0], d)
        for s in (GREEN, YELLOW, BLUECOATS):
            self.supply[s] += c[s]
            c[s] = 0

    def award(self, side, d):
        tokens = self.tokens[d]
        if not tokens:
            return
        if len(tokens) == 1:
            t = tokens.pop()
        elif side == BLUECOATS:                   # hats (highest first), gambling, ...
            t = min(tokens, key=lambda t: t[RANK])
            tokens.remove(t)
        else:                                     # one option per token name
            names = []
            for t in tokens:
                if t[NAME] not in names:
                    names.append(t[NAME])
            name = names[self.choose(len(names), "take")]
            t = next(t for t in tokens if t[NAME] == name)
            tokens.remove(t)
        self.gain(side, t)

    def gain(self, side, t):
        kind = t[KIND]
        if side == BLUECOATS:                     # hats wait beside the board, the rest: box
            if kind == HAT:
                self.aside.append(t)
            return
        self.held[side] += 1
        if kind == HAT:
            self.hats[side] += t[VALUE]
        elif self.choose(2, "flip") == 0:         # flip / pass
            self.flipped[side] += 1
        elif kind == INFUSION:
            self.infusions[side] += 1
        else:
            self.business[side][kind] += 1

    # ------------------------------------------------------------ final scoring
    def final_scoring(self):
        scores = [self.hats[p] + self.flipped[p] for p in (GREEN, YELLOW)]
        for b in BUSINESSES:
            g, y = self.business[GREEN][b], self.business[YELLOW][b]
            if g != y:
                top = GREEN if g > y else YELLOW
                scores[top] += MAJORITY[b] * (2 if min(g, y) == 0 else 1)
        self.scores = scores
        # ties: most face-up infusion tokens, then most cubes on the board
        for key in (scores, self.infusions,
                    [sum(c[p] for c in self.cubes) for p in (GREEN, YELLOW)]):
            if key[GREEN] != key[YELLOW]:
                self.winner = GREEN if key[GREEN] > key[YELLOW] else YELLOW
                break


def play(seed):
    """One complete random game: {"winner": "green"/"yellow"/None, "scores": {...},
    "decisions": N, "rounds": 3}."""
    g = Game(seed).play()
    return {
        "winner": None if g.winner is None else SEATS[g.winner],
        "scores": {SEATS[p]: g.scores[p] for p in (GREEN, YELLOW)},
        "decisions": g.decisions,
        "rounds": 3,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0, help="first seed; games use S, S+1, ...")
    args = ap.parse_args()
    wins = {"green": 0, "yellow": 0, "tie": 0}
    totals = {"green": 0, "yellow": 0}
    decisions = 0
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        r = play(seed)
        wins[r["winner"] or "tie"] += 1
        for k, v in r["scores"].items():
            totals[k] += v
        decisions += r["decisions"]
    seconds = time.perf_counter() - start
    n = max(args.games, 1)
    print(json.dumps({
        "games": args.games,
        "seconds": round(seconds, 4),
        "games_per_second": round(args.games / seconds, 1) if seconds > 0 else None,
        "decisions": decisions,
        "wins": wins,
        "mean_scores": {k: round(v / n, 3) for k, v in totals.items()},
    }))


if __name__ == "__main__":
    main()
