"""Ninja Clan Wars' Mission Phase as a mixin of the state: attacks, blocks, the Stealth and Fight contests, ratings."""

from __future__ import annotations

from . import cards as C
from .actions import (
    ACTION_CARD,
    ACTION_CHOICE,
    ATT_EXTRA,
    BLOCK,
    CONTEST_ACTIONS,
    CONTEST_PHASES,
    DEF_EXTRA,
    ENDURANCE,
    ENDURANCE_CARD,
    FIGHT,
    FIGHT_BACK,
    MISSION,
    NEGATE,
    OVER,
    PASS,
    PLAY,
    PRESS,
    SEAT,
    SEAT_NAMES,
    SLEEPER,
    STEALTH,
    TARGET,
    TARGET_CHOICE,
    UNIT,
    WITHDRAW,
)
from .cards import ATTACKING, BLOCKING, CARDS, DEFENDING, EVENT_KIND, NAMES, UNBLOCKED, UNITS

STEALTH_WIN_BONUS = 3  # the attacker's Fight bonus for winning the Stealth contest
TARGET_BONUS = 3  # the target's (or its substitute's) Fight bonus when it fights back

# By stat (0 Stealth, 1 Fight): the (unit, bonus) of the units giving their clan-mates that stat (AYN), and each
# unit's bonus per Event card its side plays in a contest of that stat (ECP).
AYN_BONUSES = tuple(tuple((u, bonus) for u, unit in enumerate(UNITS)
                          if (bonus := (unit.ability.ayn_s, unit.ability.ayn_f)[stat])) for stat in (0, 1))
PRINTED = (tuple(unit.s for unit in UNITS), tuple(unit.f for unit in UNITS))
# By stat and unit: (role, bonus) of its bonus in that stat in a combat role (+4S if Blocking), else None.
ROLE_BONUSES = tuple(tuple((unit.ability.when, bonus) if (bonus := (unit.ability.s, unit.ability.f)[stat]) else None
                           for unit in UNITS) for stat in (0, 1))
ECP_BONUSES = tuple(tuple((unit.ability.ecp_s, unit.ability.ecp_f)[stat] for unit in UNITS) for stat in (0, 1))


class Combat:
    """The Mission Phase of `ClanWarsState`: each attack is a combat of small decisions (attacker, target, extra
    Ninja, block, Stealth contest, the target's choice, Fight contest, Endurance)."""

    def _clear_combat(self) -> None:
        self.attacks_left = 0
        self.attacked = 0  # bitmask of units that attacked this turn
        self.spy_used = 0  # bitmask of SPY units that looked this turn
        self.mass = 0  # extra Ninja per side allowed in the next / current attack
        self.pending = -1  # an Event (or LOOK) waiting for its target
        self.c_att: list[int] = []  # attacking units, the first is the declared attacker
        self.c_def: list[int] = []  # defending units besides the head (extra Ninja)
        self.c_head = -1  # the defending Ninja that fights (-1: the village)
        self.c_target = -1  # the targeted Ninja (-1: the village)
        self.c_blocker = -1
        self.c_defender = -1  # the defending player
        self.c_extra_left = 0
        self.c_bonus = [0, 0]  # Fight bonuses of the attacking and defending sides
        self.c_plays: list[list[int]] = []  # this contest: [side, card, s, f, negated]
        self.c_cards: list[int] = []  # every card played in this combat (discarded at its end)
        self.c_stage = 0  # the contest under way or last held: 0 Stealth, 1 Fight
        self.c_turn = 0  # side to act in a contest: 0 attacker, 1 defender
        self.c_passes = 0
        self.c_killed: list[int] = []  # attacking card Ninja killed in this combat (for Endurance)
        self.c_log: list[str] = []  # what happened in this combat, for the view
        self.c_result: tuple[int, int] | None = None  # the totals of the contest last decided

    def _free_attackers(self) -> list[int]:
        p = self.current
        attacked = self.attacked
        owner = self.owner
        return [u for u in self.in_play if owner[u] == p and not attacked >> u & 1]

    # --- legal actions in the Mission Phase -----------------------------------------------------------
    def _mission_actions(self, seat: int) -> list[int]:
        free = self._free_attackers()
        acts = [PASS]
        if self.attacks_left > 0:
            acts += [UNIT + u for u in free]
        for cid in self.hands[seat]:
            kind = EVENT_KIND[cid]
            if kind == C.EXTRA_ATTACK and len(free) > self.attacks_left:
                acts.append(PLAY + cid)  # a second Ninja must be free to make the extra attack
            elif kind == C.MASS and self.mass == 0 and self.attacks_left > 0 and len(free) > 1:
                acts.append(PLAY + cid)
        return acts

    def _free_defenders(self) -> list[int]:
        d = self.c_defender
        head, target, extra = self.c_head, self.c_target, self.c_def
        owner = self.owner
        return [u for u in self.in_play if owner[u] == d and u != head and u != target and u not in extra]

    def _contest_actions(self, seat: int) -> list[int]:
        acts = [PASS]
        plays = CONTEST_ACTIONS[0 if self.phase == STEALTH else 1][self.c_turn]
        for cid in self.hands[seat]:
            acts += plays[cid]
        return acts

    def _target_actions(self, seat: int) -> list[int]:
        return [SEAT + s for s in self.opponents(seat)] + [UNIT + u for u in self._enemy_units(seat)]

    def _att_extra_actions(self, seat: int) -> list[int]:
        return [PASS] + [UNIT + u for u in self._free_attackers() if u not in self.c_att]

    def _block_actions(self, seat: int) -> list[int]:
        acts = [PASS] + [UNIT + u for u in self._free_defenders()]
        if not self.mass:  # the defender may make it a mass combat
            acts += [PLAY + c for c in self.hands[seat] if EVENT_KIND[c] == C.MASS]
        return acts

    def _def_extra_actions(self, seat: int) -> list[int]:
        return [PASS] + [UNIT + u for u in self._free_defenders()]

    def _target_choice_actions(self, seat: int) -> list[int]:
        return [NEGATE, FIGHT_BACK] + [UNIT + u for u in self._free_defenders()]

    def _endurance_actions(self, seat: int) -> list[int]:
        acts = [PASS]
        if ENDURANCE_CARD in self.hands[seat]:
            acts += [UNIT + u for u in self.c_killed]
        return acts

    def _press_actions(self, seat: int) -> list[int]:
        return [FIGHT_BACK, WITHDRAW]

    # --- applying actions ---------------------------------------------------------------------------
    # Attacks
    def _do_mission(self, seat: int, action: int) -> None:
        if action == PASS:
            self.mass = 0
            self._recovery()
            return
        if action >= UNIT:
            self.c_att = [action - UNIT]
            self.attacked |= 1 << (action - UNIT)
            self.phase = TARGET
            self._attack_draw(action - UNIT)
            return
        cid = ACTION_CARD[action]
        self._hand_to_discard(seat, cid)
        e = CARDS[cid].effect
        if e.kind == C.EXTRA_ATTACK:
            self.attacks_left += e.amount
            self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}: one extra attack this turn")
        else:
            self.mass = e.amount
            self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}: each side may add {e.amount} Ninja "
                     "to the next attack")

    def _attack_draw(self, unit: int) -> None:
        draw = UNITS[unit].ability.attack_draw
        if draw:
            self.log("ability", f"{UNITS[unit].name} attacks: {SEAT_NAMES[self.current]} draws {draw}")
            self._draw(self.current, draw)

    def _do_target(self, seat: int, action: int) -> None:
        if action >= SEAT:
            self.c_defender = action - SEAT
            self.c_target = -1
            what = f"{SEAT_NAMES[self.c_defender]}'s village"
        else:
            self.c_target = action - UNIT
            self.c_defender = self.owner[self.c_target]
            what = f"{UNITS[self.c_target].name} of {SEAT_NAMES[self.c_defender]}"
        self.c_head = self.c_target
        self.count("raids" if self.c_target < 0 else "attacks_on_ninja")
        self.log("attack", f"{SEAT_NAMES[seat]} attacks {what} with {UNITS[self.c_att[0]].name}")
        self.c_log.append(f"{UNITS[self.c_att[0]].name} attacks {what}")
        if self.mass:
            self.c_extra_left = self.mass
            self.phase = ATT_EXTRA
            self._maybe_skip_att_extra()
        else:
            self._ask_block()

    def _maybe_skip_att_extra(self) -> None:
        if self.c_extra_left == 0 or not [u for u in self._free_attackers() if u not in self.c_att]:
            self._ask_block()

    def _do_att_extra(self, seat: int, action: int) -> None:
        if action == PASS:
            self._ask_block()
            return
        u = action - UNIT
        self.c_att.append(u)
        self.attacked |= 1 << u
        self.c_extra_left -= 1
        self.c_log.append(f"{UNITS[u].name} joins the attack")
        self.log("attack", f"{UNITS[u].name} joins the attack")
        self._attack_draw(u)
        if self.phase != OVER:
            self._maybe_skip_att_extra()

    def _ask_block(self) -> None:
        self.phase = BLOCK
        if not self._free_defenders():
            self._ask_def_extra()

    def _do_block(self, seat: int, action: int) -> None:
        if PLAY <= action < SLEEPER:
            self._defender_mass(seat, ACTION_CARD[action])
            return
        if action != PASS:
            self.c_blocker = self.c_head = action - UNIT
            self.c_log.append(f"{UNITS[self.c_blocker].name} blocks")
            self.log("block", f"{SEAT_NAMES[seat]} blocks with {UNITS[self.c_blocker].name}")
        else:
            self.c_log.append("no block")
        self._ask_def_extra()

    def _defender_mass(self, seat: int, cid: int) -> None:
        """The defender plays a mass-combat card: the attacker may add Ninja first, then the defender blocks."""
        self._hand_to_discard(seat, cid)
        self.mass = CARDS[cid].effect.amount
        self.c_log.append(f"defender plays {NAMES[cid]}")
        self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}: each side may add {self.mass} Ninja")
        self.c_extra_left = self.mass
        self.phase = ATT_EXTRA
        self._maybe_skip_att_extra()

    def _ask_def_extra(self) -> None:
        self.c_extra_left = self.mass
        self.phase = DEF_EXTRA
        if not self.c_extra_left or not self._free_defenders():
            self._start_contest(STEALTH)

    def _do_def_extra(self, seat: int, action: int) -> None:
        if action == PASS:
            self._start_contest(STEALTH)
            return
        u = action - UNIT
        self.c_def.append(u)
        self.c_extra_left -= 1
        self.c_log.append(f"{UNITS[u].name} joins the defence")
        self.log("block", f"{UNITS[u].name} joins the defence")
        if not self.c_extra_left or not self._free_defenders():
            self._start_contest(STEALTH)

    # Contests
    def _start_contest(self, phase: int) -> None:
        self.phase = phase
        self.c_stage = 0 if phase == STEALTH else 1
        self.c_plays = []
        self.c_turn = 0
        self.c_passes = 0
        self._auto_pass()

    def _auto_pass(self) -> None:
        """A side with an empty hand (a public fact) can only pass."""
        while self.phase in (STEALTH, FIGHT):
            seat = self.current if self.c_turn == 0 else self.c_defender
            if self.hands[seat]:
                return
            self._pass_contest()

    def _pass_contest(self) -> None:
        self.c_passes += 1
        if self.c_passes >= 2:
            if self.phase == STEALTH:
                self._resolve_stealth()
            else:
                self._resolve_fight()
        else:
            self.c_turn ^= 1

    def _do_contest(self, seat: int, action: int) -> None:
        if action == PASS:
            self._pass_contest()
            self._auto_pass()
            return
        cid = ACTION_CARD[action]
        e = CARDS[cid].effect
        s, f = e.choices[ACTION_CHOICE[action]]
        side = self.c_turn
        self._leave_hand(seat, cid)
        self.c_cards.append(cid)
        self.c_plays.append([side, cid, s, f, 0])
        bonus = f"+{s}S" if self.phase == STEALTH else f"+{f}F"
        self.c_log.append(f"{('attacker', 'defender')[side]} plays {NAMES[cid]} ({bonus})")
        self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]} ({bonus})")
        if e.kind == C.GRAPPLE:
            self._grapple(side)
        if e.discard:
            other = self.c_defender if side == 0 else self.current
            self._random_discards(other, e.discard)
        self.c_passes = 0
        self.c_turn ^= 1
        self._auto_pass()

    def _grapple(self, side: int) -> None:
        """Negate the opposing Event card giving the largest Fight bonus in this contest (latest on ties)."""
        best = None
        for play in self.c_plays:
            if play[0] != side and not play[4] and play[3] > 0 and (best is None or play[3] >= best[3]):
                best = play
        if best is not None:
            best[4] = 1
            self.c_log.append(f"Taijutsu Grapple negates {NAMES[best[1]]}")
            self.log("play", f"Taijutsu Grapple negates {NAMES[best[1]]}")

    # Ratings
    def rating(self, unit: int, stat: int, role: int = -1) -> int:
        """A unit's current Stealth (0) or Fight (1): printed, AYN of its clan-mates, and the bonus of
        its role in the current combat (`role`: 0 attacking, 1 defending, -1 none)."""
        return self.ratings_sum((unit,), stat, role)

    def ratings_sum(self, units: list[int] | tuple[int, ...], stat: int, role: int = -1) -> int:
        """The sum of the units' `rating`s (one call for a whole side of a combat)."""
        owner = self.owner
        ayn = AYN_BONUSES[stat]
        role_bonuses = ROLE_BONUSES[stat]
        printed = PRINTED[stat]
        total = 0
        for unit in units:
            total += printed[unit]
            seat = owner[unit]
            for v, bonus in ayn:  # "all your Ninja": every other one of its controller
                if v == unit:
                    if seat < 0:
                        total -= bonus  # out of play, an AYN unit is shown its rating less its own AYN
                elif owner[v] == seat >= 0:
                    total += bonus
            if role >= 0 and role_bonuses[unit]:
                when, bonus = role_bonuses[unit]
                applies = (
                    (when == ATTACKING and role == 0)
                    or (when == UNBLOCKED and role == 0 and self.c_blocker < 0)
                    or (when == DEFENDING and role == 1)
                    or (when == BLOCKING and role == 1 and unit != self.c_target)
                )
                if applies:
                    total += bonus
        return total

    def side_units(self, side: int) -> list[int]:
        if side == 0:
            return self.c_att
        return ([self.c_head] if self.c_head >= 0 else []) + self.c_def

    def side_totals(self, stat: int) -> tuple[int, int]:
        """Both sides' totals in a contest of `stat`: their Ninja (or village, 0), their Event cards and ECP."""
        att_units, dfn_units = self.c_att, self.side_units(1)
        att = self.ratings_sum(att_units, stat, 0)
        dfn = self.ratings_sum(dfn_units, stat, 1)
        if self.c_plays:
            ecp_of = ECP_BONUSES[stat]
            att_ecp = dfn_ecp = 0  # each Event card a side plays gives this much more
            for u in att_units:
                att_ecp += ecp_of[u]
            for u in dfn_units:
                dfn_ecp += ecp_of[u]
            for side, _card, s, f, negated in self.c_plays:
                if not negated:
                    if side:
                        dfn += (f if stat else s) + dfn_ecp
                    else:
                        att += (f if stat else s) + att_ecp
        if stat == 1:
            return att + self.c_bonus[0], dfn + self.c_bonus[1]
        return att, dfn

    def contest_totals(self) -> tuple[int, int]:
        """The running totals of the contest under way, or those of the last one decided."""
        if self.phase in CONTEST_PHASES or self.c_result is None:
            stat = self.c_stage
            return self.side_totals(stat)
        return self.c_result

    def _resolve_stealth(self) -> None:
        att, dfn = self.side_totals(0)
        self.c_result = (att, dfn)
        self._tally_deciders(0, att, dfn)
        self.c_log.append(f"Stealth {att} against {dfn}")
        if att > dfn:
            self.log("combat", f"the attacker wins the Stealth contest {att} to {dfn}")
            self.c_head = self.c_target  # past any blocker, on to the original target
            self.c_bonus[0] = STEALTH_WIN_BONUS
            self.phase = PRESS  # "he may attack his original target"
        else:
            self.log("combat", f"the defender wins the Stealth contest {dfn} to {att}")
            if self.c_blocker >= 0:
                self._start_contest(FIGHT)  # the blocker must fight
            elif self.c_target < 0:
                self.c_log.append("the attack is used up")
                self.log("combat", "the unblocked village holds: the attack is used up")
                self._end_combat()
            else:
                self.phase = TARGET_CHOICE

    def _tally_deciders(self, stat: int, att: int, dfn: int) -> None:
        """For `stats`: each Event card without which its side would have lost the contest decided it."""
        winner = 0 if att > dfn else 1
        ecp = sum(UNITS[u].ability.ecp_f if stat else UNITS[u].ability.ecp_s for u in self.side_units(winner))
        for side, cid, *bonus, negated in self.c_plays:
            if side != winner or negated:
                continue
            worth = bonus[stat] + ecp
            if (att - worth <= dfn) if winner == 0 else (att > dfn - worth):
                self.count(f"decided_by:{NAMES[cid]}")

    def _do_press(self, seat: int, action: int) -> None:
        if action == WITHDRAW:
            self.c_log.append("the attacker withdraws")
            self.log("combat", f"{UNITS[self.c_att[0]].name} withdraws")
            self._end_combat()
        else:
            self._start_contest(FIGHT)

    def _do_target_choice(self, seat: int, action: int) -> None:
        if action == NEGATE:
            self.c_log.append(f"{UNITS[self.c_target].name} negates the attack")
            self.log("combat", f"{UNITS[self.c_target].name} negates the attack")
            self._end_combat()
            return
        if action != FIGHT_BACK:
            self.c_head = action - UNIT
            self.c_log.append(f"{UNITS[self.c_head].name} substitutes for {UNITS[self.c_target].name}")
            self.log("combat", f"{UNITS[self.c_head].name} substitutes for {UNITS[self.c_target].name}")
        else:
            self.log("combat", f"{UNITS[self.c_target].name} fights back")
        self.c_bonus[1] = TARGET_BONUS
        self._start_contest(FIGHT)

    def _resolve_fight(self) -> None:
        att, dfn = self.side_totals(1)
        self.c_result = (att, dfn)
        self._tally_deciders(1, att, dfn)
        self.count("fights_won_by_attacker" if att > dfn else "fights_won_by_defender")
        self.c_log.append(f"Fight {att} against {dfn}")
        attacker_lost = att <= dfn
        if not attacker_lost:
            losers = self.side_units(1)
            self.log("combat", f"the attacker wins the Fight contest {att} to {dfn}")
            if self.c_head < 0:
                paid = min(att - dfn, self.markers[self.c_defender])
                self.markers[self.c_defender] -= paid
                self.count("raid_markers_taken", paid)
                self.c_log.append(f"the village loses {paid} markers")
                self.log("combat", f"{SEAT_NAMES[self.c_defender]}'s village loses {paid} Shinobi Markers")
        else:
            losers = list(self.c_att)
            self.log("combat", f"the defender wins the Fight contest {dfn} to {att}")
        for u in losers:
            self._kill(u)
        if attacker_lost:
            self.c_killed = [u for u in losers if UNITS[u].card >= 0]
        self._end_combat()

    def _kill(self, unit: int) -> None:
        self.owner[unit] = -1
        self.in_play.remove(unit)
        if UNITS[unit].card >= 0:
            self.discard.append(unit)  # a card Ninja's unit id is its card id
        self.c_log.append(f"{UNITS[unit].name} is killed")
        self.log("kill", f"{UNITS[unit].name} is killed")

    def _end_combat(self) -> None:
        self.discard.extend(self.c_cards)
        self.c_cards = []
        self.c_plays = []
        self._check_defeats()
        if self.phase == OVER:
            return
        p = self.current
        # Offered whenever an attacking card Ninja died and the hand is not empty (public facts), so
        # the decision shows nothing of whether Endurance is in the hand.
        if self.c_killed and not self.defeated[p] and self.hands[p]:
            self.phase = ENDURANCE
            return
        self._after_attack()

    def _do_endurance(self, seat: int, action: int) -> None:
        if action != PASS:
            unit = action - UNIT
            self._hand_to_discard(seat, ENDURANCE_CARD)
            self.discard.remove(unit)
            self._discard_kept = None  # the pile shrank: the observation's copy of it starts again
            self.hands[seat].append(unit)
            for x in range(self.players):
                if x != seat:
                    self.known[x][seat].append(unit)  # everybody saw it go back to the hand
            self.log("play", f"{SEAT_NAMES[seat]} plays Endurance: {UNITS[unit].name} goes back to the hand")
        self._after_attack()

    def _after_attack(self) -> None:
        p = self.current
        self.attacks_left -= 1
        self.mass = 0
        keep = (self.attacked, self.spy_used, self.attacks_left)
        self._clear_combat()
        self.attacked, self.spy_used, self.attacks_left = keep
        if self.defeated[p]:
            self._end_turn()
            return
        self.phase = MISSION
        self._maybe_skip_mission()
