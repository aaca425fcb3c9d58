"""Effects: what the rules do to a game (move, place, remove, transfer,
give, pay with change, roll, shuffle, reveal, draw), each logged as the
seats may see it (a part of engine.Game)."""
from __future__ import annotations

from typing import Any, Literal, Sequence

from ..model.state import Attachment, Comp, Side, Zone, display, py_name
from .builtins import RuleError, kind_of
from .gamelog import public_place
from .gamestate import GameState, Say


class Effects(GameState):
    """A part of engine.Game."""

    def move(self, what: Any, dest: Any, top: bool = True,
             say: Say | Literal[False] | None = None) -> None:
        """Move components to the top (or bottom) of a zone. `say` is the
        statement's own log line (a `log` clause), or False for none: a draw
        says its cards in one line."""
        items: Sequence[Comp]
        if type(what) is Comp and type(dest) is Zone:  # one component: the common case
            items = (what,)
        elif what is None:
            return
        else:
            items = (what,) if type(what) is Comp else \
                what.items[:] if type(what) is Zone else list(what)
            if type(dest) is not Zone:
                raise RuleError(f"cannot move into {display(dest)}: not a zone")
            if len(items) > 1:
                self.fuel -= len(items)
                if self.fuel < 0:
                    self.out_of_steps()
        moved: list[tuple[Comp, Zone | None]] | None = [] if self.logging else None
        carried = False  # (some of them are attached, or have something attached)
        for c in items:
            carried = carried or c._att is not None
            z = c.zone
            c._seen = None  # what a reveal showed was where it lay
            if c._hooks and (z is not None and z.live) != dest.live:
                self._relive(c, dest.live)
            if z is not None:
                z.items.remove(c)
            if top:
                dest.items.insert(0, c)
            else:
                dest.items.append(c)
            c.zone = dest
            if moved is not None:
                moved.append((c, z))
        if moved and say is not False:
            self._log_moves(moved, dest, top, say, items if type(what) is Zone else what)
        if carried:
            self._carry(items, dest, say is not False)

    # ---------------------------------------------------------------- attachments
    def attach(self, what: Any, host: Any) -> None:
        """`attach X to HOST`: each X comes off what it was attached to, lies
        in HOST's zone right after HOST and what is already attached to it,
        and from then on goes where HOST goes."""
        if type(host) is not Comp:
            raise RuleError(f"components are attached to a component, not {kind_of(host)}")
        if host.zone is None:
            raise RuleError(f"{host.id} lies nowhere: nothing can be attached to it")
        for c in _comps(what, "attached"):
            up: Comp | None = host
            while up is not None:  # not to itself, nor to what is attached to it
                if up is c:
                    raise RuleError(f"{c.id} cannot be attached to {host.id}: "
                                    f"{'it is the same component' if host is c else 'that is attached to it'}")
                up = up.host
            self.fuel -= 1
            if self.fuel < 0:
                self.out_of_steps()
            self._unhook(c)
            ha = host._att
            if ha is None:
                ha = host._att = Attachment()
            last = ha.guests[-1] if ha.guests else host
            while last._att is not None and last._att.guests:  # after the whole group
                last = last._att.guests[-1]
            if c.zone is not host.zone:
                self.move(c, host.zone, True)  # (what is attached to c comes along)
            items = host.zone.items
            group = [g for g in _group(c) if g.zone is host.zone]
            for g in group:
                items.remove(g)
            at = items.index(last) + 1
            items[at:at] = group
            ca = c._att
            if ca is None:
                ca = c._att = Attachment()
            ca.host = host
            ha.guests.append(c)
            if self.logging:
                self._log_attach(c, host, True)

    def detach(self, what: Any) -> None:
        """`detach X`: X comes off its host and stays where it lies."""
        for c in _comps(what, "detached"):
            host = c.host
            if host is not None:
                self._unhook(c)
                if self.logging:
                    self._log_attach(c, host, False)

    def _unhook(self, c: Comp) -> None:
        """c off its host, if it has one (what is attached to c stays so)."""
        a = c._att
        if a is None or a.host is None:
            return
        host, a.host = a.host, None
        ha = host._att
        assert ha is not None  # (a host's own record lists c)
        ha.guests.remove(c)
        if not ha.guests and ha.host is None:
            host._att = None
        if not a.guests:
            c._att = None

    def _carry(self, items: Sequence[Comp], dest: Zone, logged: bool) -> None:
        """After a move: what moved on its own comes off its host; what is
        attached to a moved component follows it into `dest`, right after it."""
        moving = {id(c) for c in items}
        for c in items:
            a = c._att
            if a is not None and a.host is not None and id(a.host) not in moving:
                self._unhook(c)
        work = [c for c in items if c._att is not None and c._att.guests]
        while work:
            c = work.pop(0)
            assert c._att is not None
            for g in c._att.guests:
                if id(g) in moving:
                    continue
                moving.add(id(g))
                z = g.zone
                if g._hooks and (z is not None and z.live) != dest.live:
                    self._relive(g, dest.live)
                if z is not None:
                    z.items.remove(g)
                g._seen = None
                at = dest.items.index(c)
                while at + 1 < len(dest.items) and dest.items[at + 1].host is c:
                    at += 1  # after those already carried
                dest.items.insert(at + 1, g)
                g.zone = dest
                if self.logging and logged:
                    self._log_moves([(g, z)], dest, True, None, g)
                if g._att is not None and g._att.guests:
                    work.append(g)

    def cycle(self, zones: Any, say: Say | None = None) -> None:
        """`cycle ZONES`: every zone's components pass, all at once and in
        their order, to the next zone of the list, the last zone's to the
        first (hands passed to the left; `reverse(...)` passes them right).
        Each zone's pass is a move, seen and logged as any move."""
        if type(zones) is not list or any(type(z) is not Zone for z in zones):
            raise RuleError(f"cycle passes round a list of zones, not {display(zones)}")
        if len({id(z) for z in zones}) != len(zones):
            raise RuleError("cycle: a zone stands twice in the list")
        held = [z.items[:] for z in zones]  # what each holds now: nothing moves twice
        for i, items in enumerate(held):
            if items:  # at the bottom: the next zone's own leave it before the end
                self.move(items, zones[(i + 1) % len(zones)], False, say)

    def piece_kind(self, kind: Any) -> str:
        """A piece kind named by a value (`place 1 k of p at s`): one the
        ruleset has, or a located error."""
        if type(kind) is not str or kind not in self.program.piece_kinds:
            named = repr(kind) if type(kind) is str else display(kind)
            raise RuleError(f"{named} is not a piece kind (the pieces are "
                            f"{', '.join(self.program.piece_kinds) or 'none'})")
        return kind

    def place(self, piece: str, owner: Side | None, loc: Any, n: int | None,
              say: Say | None = None) -> int:
        if owner is None:
            raise RuleError(f"place {piece}: no owner")
        a = py_name(piece)
        have = getattr(owner, a)
        short = n is not None and n > have  # the supply runs out: say so, never silently
        if n is None or n > have:
            n = have
        if self.logging and short:
            self.say_at((f"{owner.id} has only {have} {piece} left in supply: "
                         f"{'places ' + str(have) if have else 'places none'} at ", 0),
                        loc, short=True, event={"kind": "place", "player": owner.id,
                                                "piece": piece, "count": have, "short": n})
        if n <= 0:
            return 0
        setattr(owner, a, have - n)
        getattr(loc, a).counts[owner.index] += n
        if self.logging and not short:
            event = {"kind": "place", "player": owner.id, "piece": piece, "count": n,
                     "at": public_place(loc)}
            if say is None or not self.say_event(say, n, None, None, event=event):
                self.say_at((f"{owner.id} places {self.program.words.pieces_of(piece, n)} "
                             "at ", 0), loc, event=event)
        return n

    def remove(self, piece: str, owner: Side | None, loc: Any, n: int | None) -> int:
        a = py_name(piece)
        row = getattr(loc, a).counts
        owners = self.sides if owner is None else (owner,)
        total = 0
        for o in owners:
            have = row[o.index]
            k = have if n is None or n > have else n
            if k > 0:
                row[o.index] = have - k
                setattr(o, a, getattr(o, a) + k)
                total += k
                if self.logging:
                    self.say_at((f"{o.id} loses {self.program.words.pieces_of(piece, k)} "
                                 "at ", 0), loc, event={"kind": "remove", "player": o.id,
                                                      "piece": piece, "count": k})
        return total

    def transfer(self, piece: str, owner: Side, src: Any, dst: Any, n: int | None,
                 say: Say | None = None) -> int:
        attr = py_name(piece)
        a = getattr(src, attr).counts
        have = a[owner.index]
        k = have if n is None or n > have else n
        if k > 0:
            a[owner.index] = have - k
            getattr(dst, attr).counts[owner.index] += k
            event = {"kind": "transfer", "player": owner.id, "piece": piece, "count": k}
            if self.logging and (say is None or not self.say_event(
                    say, k, None, None, event={**event, "from": public_place(src),
                                               "to": public_place(dst)})):
                self.say_at((f"{owner.id} moves {self.program.words.pieces_of(piece, k)} "
                             "from ", 0, " to ", 1), src, dst, event=event)
        return k

    def give(self, piece: str, n: int | None, giver: Side, taker: Side,
             say: Say | None = None) -> int:
        """Move pieces between two sides' supplies (all of them when n is none)."""
        a = py_name(piece)
        have = getattr(giver, a)
        k = have if n is None or n > have else n
        if k > 0:
            setattr(giver, a, have - k)
            setattr(taker, a, getattr(taker, a) + k)
            if self.logging:
                event = {"kind": "give", "player": giver.id, "to": taker.id, "piece": piece,
                         "count": k}
                if say is None or not self.say_event(say, k, None, None, event=event):
                    self.say(f"{giver.id} gives {self.program.words.pieces_of(piece, k)} "
                             f"to {taker.id}", event=event)
        return k

    def pay(self, amount: int | None, payer: Side, payee: Side, say: Say | None = None) -> int:
        """Pass notes of money worth exactly `amount` from payer to payee. Notes are
        broken into smaller ones at the bank (exchange of equal value) when
        the payer cannot make the exact sum; the rules check that the payer
        can afford it."""
        if amount is None or amount <= 0:
            return 0
        money = self.program.money
        if amount % money[-1][2]:
            raise RuleError(f"pay {amount}: not a multiple of the smallest note ({money[-1][2]})")
        need, give = amount, []
        for _, a, value in money:  # the greedy split, tried first: it usually fits
            n = getattr(payer, a)
            k = need // value
            if n < k:
                k = n
            if k:
                give.append((a, k))
                need -= k * value
                if not need:
                    break
        if need:
            have = sum(getattr(payer, a) * value for _, a, value in money)
            if have < amount:
                raise RuleError(f"{payer.id} cannot pay {amount}: holds only {have}")
            give = self._change_for(amount, payer, payee)
            if give is None:  # paid with a bigger note, change taken back
                if self.logging:
                    self._log_pay(amount, payer, payee, say, " (a bigger note, change back)")
                return amount
            give = [(a, k) for a, k in give.items() if k]
        for a, k in give:
            setattr(payer, a, getattr(payer, a) - k)
            setattr(payee, a, getattr(payee, a) + k)
        if self.logging:
            self._log_pay(amount, payer, payee, say)
        return amount

    def _log_pay(self, amount, payer, payee, say, how=""):
        event = {"kind": "pay", "player": payer.id, "to": payee.id, "amount": amount}
        if how:
            event["change"] = True
        if say is None or not self.say_event(say, amount, None, None, event=event):
            self.say(f"{payer.id} pays {amount} to {payee.id}{how}", event=event)

    def _change_for(self, amount, payer, payee):
        """The notes payer hands over for `amount` once the bank (or someone)
        has broken its bigger notes; None when it overpaid and took change."""
        money = self.program.money
        assert self.program.rs.bank is not None  # (money names its bank: game.schema.json)
        bank = self.side_by_id(self.program.rs.bank)
        while True:
            give, need = {}, amount
            for _, a, value in money:
                k = min(getattr(payer, a), need // value)
                give[a] = k
                need -= k * value
            if need == 0:
                return give
            # break the smallest note bigger than what is still needed
            big = [(a, v) for _, a, v in reversed(money)
                   if v > need and getattr(payer, a) - give[a] > 0]
            # change comes from the bank first, then the payee, then anyone
            changers = [bank, payee] + [s for s in self.sides if s not in (bank, payee)]
            if big and any(self._exchange(payer, big[0], c) for c in changers if c is not payer):
                continue
            # last resort: hand over the bigger note and take change from the payee
            if big and self._overpay(payer, payee, give, big[0], need):
                return None
            raise RuleError(f"no change can be made for {payer.id}'s payment of {amount}")

    def _overpay(self, payer, payee, give, note, need):
        piece, value = note
        back, rest = {}, value - need
        for _, p, v in self.program.money:
            k = min(getattr(payee, p) + (give[p] if p in give else 0) +
                    (1 if p == piece else 0), rest // v)
            back[p] = k
            rest -= k * v
        if rest:
            return False
        give = dict(give)
        give[piece] = give.get(piece, 0) + 1
        for p, k in give.items():
            setattr(payer, p, getattr(payer, p) - k)
            setattr(payee, p, getattr(payee, p) + k)
        for p, k in back.items():
            setattr(payee, p, getattr(payee, p) - k)
            setattr(payer, p, getattr(payer, p) + k)
        return True

    def _exchange(self, side, note, changer):
        """`side` swaps one `note` for smaller notes of equal value held by
        `changer`; False when the changer cannot make that change."""
        piece, value = note
        smaller = [(p, v) for _, p, v in self.program.money if v < value]
        need, take = value, {}
        for p, v in smaller:
            k = min(getattr(changer, p), need // v)
            take[p] = k
            need -= k * v
        if need:
            return False
        setattr(side, piece, getattr(side, piece) - 1)
        setattr(changer, piece, getattr(changer, piece) + 1)
        for p, k in take.items():
            setattr(changer, p, getattr(changer, p) - k)
            setattr(side, p, getattr(side, p) + k)
        return True

    def roll(self, dice: Any, say: Say | None = None) -> None:
        subject = dice
        if type(dice) is Comp:
            dice = (dice,)
        elif type(dice) is Zone:
            dice = dice.items
        rig = self.rig
        rng = self.rng
        if rig is None and self.draws_inline:  # no scenario rig: every face is drawn
            bits = rng.getrandbits
            for d in dice:
                d._seen = None  # a new face: a reveal of the old one ends
                sides = d.u_sides
                if type(sides) is int and sides > 0:
                    # randint(1, sides) draws exactly this, through three calls
                    k = sides.bit_length()
                    r = bits(k)
                    while r >= sides:
                        r = bits(k)
                    d.u_value = 1 + r
                else:
                    d.u_value = rng.randint(1, sides)
            if self.logging:
                self._log_roll(dice, say, subject)
            return
        for d in dice:
            d._seen = None
            if rig is not None and rig.rolls:
                d.u_value = rig.rolls.pop(0)
            else:
                if rig is not None and not rig.told:
                    rig.told = True
                    if self.logging:
                        self.say("rig exhausted; seeded dice from here",
                                 event={"kind": "note"})
                sides = d.u_sides
                # randint(1, sides) draws exactly this, through two more calls
                d.u_value = (1 + rng._randbelow(sides)  # type: ignore[attr-defined]  # CPython's
                             if type(sides) is int and sides > 0 else rng.randint(1, sides))
        if self.logging:
            self._log_roll(dice, say, subject)

    def shuffle(self, zone: Zone) -> None:
        self.rng.shuffle(zone.items)
        for c in zone.items:
            c._seen = None

    def reveal(self, what: Any, to: Any) -> None:
        """Show components to some sides: their views and logs name them, where
        they lie, until they move or their zone is shuffled."""
        if type(what) is Comp:
            comps = [what]
        elif what is None:
            return
        elif type(what) is Zone:
            comps = what.items[:]
        elif isinstance(what, list):
            comps = what
        else:
            raise RuleError(f"only components are revealed, not {kind_of(what)}")
        sides = [to] if type(to) is Side else to
        if not isinstance(sides, list) or any(type(s) is not Side for s in sides):
            raise RuleError(f"components are revealed to sides, not {kind_of(to)}")
        if not sides:
            return
        ids = frozenset(s.id for s in sides)
        if any(type(c) is Comp and c._att is not None for c in comps):
            # what is attached to a shown component is shown with it
            seen: set[int] = set()
            comps = [g for c in comps for g in (_group(c) if type(c) is Comp else [c])
                     if id(g) not in seen and not seen.add(id(g))]  # type: ignore[func-returns-value]
        self.fuel -= len(comps)
        if self.fuel < 0:
            self.out_of_steps()
        for c in comps:
            if type(c) is not Comp:
                raise RuleError(f"only components are revealed, not {kind_of(c)}")
            c._seen = ids | c._seen if c._seen else ids
            if self.logging:
                self._log_reveal(c, sides)

    def draw(self, n: int, src: Zone, dst: Any, say: Say | None = None) -> list[Comp]:
        drawn = []
        for _ in range(n):
            if not src.items:
                break
            c, at = None, 0
            forced = self.rig.draws.get(src.name) if self.rig is not None else None
            if forced:
                cid = forced.pop(0)
                c = self.comps_by_id.get(cid)
                if c is None or c.zone is not src:
                    raise RuleError(f"rigged draw {cid!r} is not in {src.id}")
                at = src.items.index(c)
            elif src.kind == "bag":
                # randrange(n) draws exactly this, through one more call
                at = self.rng._randbelow(len(src.items))  # type: ignore[attr-defined]  # CPython's
                c = src.items[at]
            else:
                c = src.items[0]
            if c._hooks or c._att is not None or self.logging or type(dst) is not Zone:
                self.move(c, dst, False, False)
            else:  # move()'s common case, where the drawn component lies known
                c._seen = None
                del src.items[at]
                dst.items.append(c)
                c.zone = dst
            drawn.append(c)
        if self.logging:
            self._log_draw(drawn, src, dst, say, drawn)
        return drawn


def _comps(what: Any, verb: str) -> list[Comp]:
    """The components a statement names (one, a list, or none)."""
    items = [] if what is None else [what] if type(what) is Comp else \
        list(what) if isinstance(what, list) else None
    if items is None or any(type(c) is not Comp for c in items):
        raise RuleError(f"only components are {verb}, not {kind_of(what)}")
    return items


def _group(c: Comp) -> list[Comp]:
    """c and what is attached to it, and to those, depth first."""
    out, stack = [], [c]
    while stack:
        x = stack.pop()
        out.append(x)
        if x._att is not None:
            stack.extend(reversed(x._att.guests))
    return out
