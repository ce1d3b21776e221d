"""Disagreement classes that are the peer's fault, each with its reason and its evidence.

A class is ``(peer, what, rule set)``. It belongs here only when the peer models the rule
differently from the real platform, or has a bug, and a rule source or a real record shows it;
a class that is our engine's or our writers' fault never does (it stays unexplained, is reported
and goes in ``/work/notes/referee-findings.md``). docs/replay.md ("The referee") repeats each
entry with its evidence.

Peer defects that the referee works around (so that the rest of the peer's judgement still
counts) are described in the judge modules and in docs/replay.md, not here: they never show as
disagreements.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Explained:
    peer: str
    what: str
    #: Rule sets the explanation covers (a class of another rule set stays unexplained).
    rulesets: frozenset[str]
    reason: str
    evidence: str

    def covers(self, peer: str, what: str, ruleset: str) -> bool:
        return peer == self.peer and what == self.what and ruleset in self.rulesets


EXPLAINED: tuple[Explained, ...] = (
    Explained(
        peer="jansou (tenhou6)",
        what="does not read Tenhou sanma tenhou.net/6",
        rulesets=frozenset({"tenhou-3p"}),
        reason=(
            "jansou's tenhou.net/6 reader counts the players from `name`, which Tenhou writes "
            "with four entries in sanma (the last one empty), and has no North extraction (an "
            '"f44" in a discard list breaks it with a TypeError)'
        ),
        evidence=(
            "jansou 0.14.0 jansou/io/tenhou_json.py: parse_tenhou_json takes "
            "player_count = len(data['name']); dump_tenhou_json: \"The three-player North bonus "
            "has no place in this reader's turn model\". A real Tenhou sanma record fails the "
            "same way: ../shared/corpus/tenhou6_json/SoliDeoGloria000__sanma-engine/"
            '2024010120gm-00b9-0000-e324b88a.json (name has 4 entries, discards hold "f44")'
        ),
    ),
    Explained(
        peer="riichienv",
        what="double yakuman form counted double (Tenhou has none)",
        rulesets=frozenset({"tenhou-4p", "tenhou-3p"}),
        reason=(
            "riichienv's HandEvaluator counts suuankou tanki, kokushi 13-sided, junsei chuuren "
            "and daisuushii as two yakuman whatever the rules (its GameRule flags for them are "
            "not used when valuing a hand); Tenhou counts every yakuman once"
        ),
        evidence=(
            "riichienv-core/src/yaku.rs: yakuman_count += 2 for ID_SUANKO_TANKI, "
            "ID_JUNSEI_CHUUREN, ID_DAISUUSHI, han = 26 for ID_KOKUSHI_13, with no rule "
            'consulted; Tenhou: "Tenhou treats each yakuman as single, so there are no double '
            "yakuman\" (../shared/docs/reference/log-formats.md, from Tenhou's mjlog yaku ids "
            "41/46/48 written with 13 han)"
        ),
    ),
    Explained(
        peer="riichienv",
        what="double riichi after a North extraction",
        rulesets=frozenset({"tenhou-3p", "majsoul-3p"}),
        reason=(
            "riichienv's mjai replay calls a first-discard riichi double unless a chi, pon or kan "
            "came before it; a North extraction does not count there, while both platforms "
            "treat it as a call that breaks the first go-around"
        ),
        evidence=(
            "riichienv-core/src/replay/mjai_replay.rs: is_wliqi = is_liqi && first_discard && "
            "!has_calls, has_calls set by chi, pon and kans only (not kita). Mahjong Soul: "
            'riichi.wiki, Majsoul, 3-player rules: "North replacing is similar to a calling '
            "action, thus this can nullify Ippatsu, Blessing of Earth, Nine Different Terminals "
            'and Honors and Double Riichi"; Tenhou: real 2025 sanma games (our commit 4733133, '
            "kita_breaks_first_turn on tenhou-3p)"
        ),
    ),
    Explained(
        peer="libriichi",
        what="ron on a closed kan refused (thirteen orphans)",
        rulesets=frozenset({"majsoul-4p"}),
        reason=(
            "libriichi plays Tenhou's rules, where nobody may ron a closed kan; Mahjong Soul "
            "lets thirteen orphans rob one"
        ),
        evidence=(
            "Mortal libriichi/src/state/update.rs: the Ankan arm never sets can_ron_agari (only "
            "Kakan offers a chankan); Mahjong Soul: RiichiEnv docs/RULES.md, platform presets, "
            "allows_ron_on_ankan_for_kokushi_musou True for default_mjsoul (from its "
            "verification on Mahjong Soul paifus), and jansou's mahjong-soul preset "
            "(kokushi_ankan_chankan=True)"
        ),
    ),
    Explained(
        peer="jansou (mjai)",
        what="cannot read a ron on a closed kan (thirteen orphans)",
        rulesets=frozenset({"majsoul-4p", "majsoul-3p"}),
        reason=(
            "jansou's mjai reader knows the robbed tile of an added kan or a North only: a hora "
            'right after an ankan stops it ("hora without a preceding draw or discard"), '
            "though its own mahjong-soul preset allows the ron"
        ),
        evidence=(
            "jansou 0.14.0 jansou/io/mjai.py, _parse_body: `robbed` is set for kakan and kita, "
            "not ankan; jansou/core/rules.py: _MAHJONG_SOUL has kokushi_ankan_chankan=True; "
            "RiichiEnv docs/RULES.md: Mahjong Soul allows_ron_on_ankan_for_kokushi_musou True"
        ),
    ),
    Explained(
        peer="jansou (mjai)",
        what="sanma noten payments from a 3,000 pool",
        rulesets=frozenset({"tenhou-3p", "majsoul-3p"}),
        reason=(
            "jansou pools the noten payments of an exhaustive draw at 3,000 in sanma too (its "
            "Rules accept a pool of 0 or 3,000 only); Tenhou and Mahjong Soul sanma pool 2,000"
        ),
        evidence=(
            "jansou/core/rules.py: noten_penalty_pool in (0, 3000), the tenhou-3p and "
            "mahjong-soul-3p presets keep 3000. Tenhou: a real sanma record pays "
            "[1000, 1000, -2000] for two tenpai, ../shared/corpus/tenhou6_json/"
            "SoliDeoGloria000__sanma-engine/2024010120gm-00b9-0000-ef5da89f.json, log[3]; "
            'Mahjong Soul: riichi.wiki "Majsoul", 3-player rules: "No-ten penalty: 2000 '
            'points"'
        ),
    ),
    *(
        Explained(
            peer=f"jansou ({export})",
            what="tenpai on a kind held four times in own kans counted noten",
            rulesets=frozenset(rulesets),
            reason=(
                "at an exhaustive draw jansou counts a hand noten when its every wait is a kind "
                "whose four copies are in the hand's own kans; Tenhou and Mahjong Soul count it "
                "tenpai"
            ),
            evidence=(
                'riichi.wiki "Karaten": "this hand could complete a sequence if there was a '
                "fifth 3-pin, but all four are part of a kan ... On Tenhou, there have been "
                "reports of a hand containing 12s44466688p with a kan of 3s, scored as in "
                'tenpai. Likewise, the same kind of case is allowable in Mahjong Soul"'
            ),
        )
        for export, rulesets in (
            ("mjai", ("tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p")),
            ("tenhou6", ("tenhou-4p",)),
        )
    ),
    Explained(
        peer="jansou (mjai)",
        what="pao over the whole of a composite yakuman",
        rulesets=frozenset({"majsoul-4p", "majsoul-3p"}),
        reason=(
            "jansou makes the liable player answer for the whole of a composite yakuman "
            "(Tenhou's way); on Mahjong Soul the liability covers only the yakuman it is for, "
            "the rest being paid as usual"
        ),
        evidence=(
            "jansou/core/rules.py has no such option (only pao_daisangen, pao_daisuushi, "
            'pao_suukantsu); riichi.wiki "Majsoul", rules: "Composite yakuman: Seperated '
            'responsibility for each yakuman" (with a Mahjong Soul payment screenshot); '
            "RiichiEnv docs/RULES.md: yakuman_pao_is_liability_only, true for default_mjsoul "
            '("Only the Pao-triggering Yakuman portion is split 50/50")'
        ),
    ),
    Explained(
        peer="jansou (mjai)",
        what="waiting kan indicator turned before a chankan left unplayed",
        rulesets=frozenset({"majsoul-4p", "majsoul-3p"}),
        reason=(
            "an added kan declared on an open or added kan's replacement tile turns the earlier "
            "kan's waiting indicator at its declaration, before anyone may rob it; jansou turns "
            "it later, so a chankan ends its replay with the indicator unplayed"
        ),
        evidence=(
            "RiichiEnv (smly/RiichiEnv, checked against Mahjong Soul records), "
            "riichienv-core/src/state_3p/mod.rs and state/mod.rs, the kakan step: the kakan "
            'event, then "Reveal any pending kan doras from previous kans", then the chankan '
            "ronners are looked for; RiichiEnv's replay accepts majsoul-3p seed 19334"
        ),
    ),
    Explained(
        peer="riichienv (choices)",
        what="riichienv lists swap-call discards after a call (kuikae)",
        rulesets=frozenset({"tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p"}),
        reason=(
            "riichienv's replay lists, right after a chi or pon, the discards that swap calling "
            "forbids (the called kind, and for a chi called at one end the kind beyond the "
            "other end); its live game forbids them, its replay does not. The class is only "
            "those kinds, after the seat's own call"
        ),
        evidence=(
            "riichienv-core/src/state/event_handler.rs: the MjaiEvent::Pon and ::Chi arms of "
            "apply_event push forbidden_discards when rule.kuikae_forbidden, the "
            "LogAction::ChiPengGang arm of apply_log_action (the replay's) never does. Tenhou "
            'forbids swap calls ("Kuikae (swap calling) disallowed", Tenhou\'s "Rules for '
            '4-player Ranking Match", mjstars.net), Mahjong Soul too (riichi.wiki "Majsoul": '
            '"Swap calling (Kuikae): Not allowed"); libriichi, which forbids both kinds '
            "(forbidden_tiles), agrees with us at these decisions"
        ),
    ),
    Explained(
        peer="riichienv (choices)",
        what="riichienv offers a ron in temporary furiten",
        rulesets=frozenset({"tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p"}),
        reason=(
            "riichienv's replay offers a ron to a seat that let one of its waits pass since its "
            "own last discard, where that tile would have had no yaku; the furiten rule looks "
            "at the waits, not the yaku. The class is only a seat whose waits (by the mahjong "
            "package's agari check) include such a passed tile"
        ),
        evidence=(
            'riichi.wiki "Furiten": a player who declines to ron a "winning tile" (even if said '
            "tile can't win due to lack of yaku) enters temporary furiten until their next "
            "discard; Mortal libriichi/src/state/update.rs marks a no-yaku wait as furiten "
            '"following the behavior of Tenhou\'s furiten display", and agrees with us here'
        ),
    ),
    Explained(
        peer="libriichi (choices)",
        what="calls offered on the discard after a fourth kan by several players",
        rulesets=frozenset({"tenhou-4p", "majsoul-4p"}),
        reason=(
            "after a fourth kan made by two or more players, the hand ends unless the next "
            "discard is won on; libriichi still offers a pon or chi on it. The class is only "
            "calls, on the first discard after such a fourth kan"
        ),
        evidence=(
            "Mortal libriichi/src/state/update.rs, the dahai arm: can_pon is set from the hand "
            'alone, only can_daiminkan checks kans_on_board < 4; riichi.wiki "Tochuu '
            'ryuukyoku", suukaikan: "Most rules abort the hand when the following discard is not '
            'a winning tile"; Tenhou: "four kans (separate)" among its abortive draws '
            '(arcturus.su "Tenhou.net rules")'
        ),
    ),
    Explained(
        peer="libriichi (choices)",
        what="ron on a closed kan not offered (thirteen orphans)",
        rulesets=frozenset({"majsoul-4p"}),
        reason=(
            "libriichi plays Tenhou's rule, where nobody may ron a closed kan; Mahjong Soul "
            "lets thirteen orphans rob one. The class is only a ron on a closed kan that "
            "completes thirteen orphans (checked on the robbing hand)"
        ),
        evidence=(
            "as for the libriichi class 'ron on a closed kan refused (thirteen orphans)' above"
        ),
    ),
    Explained(
        peer="jansou (game)",
        what="plays on after the all-last dealer's tenpai in first place (tenpai-yame)",
        rulesets=frozenset({"tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p"}),
        reason=(
            "jansou's game loop stops the game on the all-last dealer's win in first place "
            "(agari-yame) but not on the dealer's tenpai at an exhaustive draw; Tenhou and "
            "Mahjong Soul stop on both. The class is only an all-last exhaustive draw with the "
            "dealer tenpai (by jansou's own count) and first with the target"
        ),
        evidence=(
            "jansou/game/progression.py: advance() ends the game on a repeat only through "
            "_agari_yame_ends, which needs the dealer to have won; jansou/core/rules.py has "
            'agari_yame and no tenpai stop. Tenhou: "Automatic agariyame and tenpaiyame for '
            'last dealer who ends in 1st place" (Tenhou\'s "Rules for 4-player Ranking Match", '
            "mjstars.net), since June 2010 (Tenhou's blog, 2010-05-18)"
        ),
    ),
    Explained(
        peer="jansou (game)",
        what="deal passed on a dealer tenpai on a kind held four times in own kans",
        rulesets=frozenset({"tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p"}),
        reason=(
            "jansou counts a hand noten when every wait is a kind its own kans hold four of "
            "(its settlement class above), so a dealer with such a hand passes the deal in its "
            "loop. The class is only such a dealer hand, where jansou's loop, told the dealer "
            "is tenpai, gives the record's next hand"
        ),
        evidence='as for "tenpai on a kind held four times in own kans counted noten" above',
    ),
    Explained(
        peer="riichienv (choices)",
        what="riichienv allows a closed kan of a waited kind in riichi",
        rulesets=frozenset({"tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p"}),
        reason=(
            "in riichi, a closed kan is allowed only where the hand's winning tiles stay the "
            "same; a kan of the kind the hand waits on takes the last copies of it out of play, "
            "so the hand can no longer win on it. riichienv compares its waits before and "
            "after the kan, and its waits after still list that kind. The class is only such "
            "kans, for a riichi hand, of a kind it waited on before its draw"
        ),
        evidence=(
            "riichienv-core/src/state/legal_actions.rs, the riichi arm of the closed kans: "
            "waits_pre == waits_post from HandEvaluator::get_waits, which does not drop a kind "
            'all of whose copies are the kan\'s; riichi.wiki "Kan", kan during riichi: "such as '
            "in tenhou.net and Mahjong Soul ... so long as a kan does not change the hand's "
            'possible winning tiles, the kan is allowed"; Tenhou: Mortal libriichi/src/algo/'
            'agari.rs, check_ankan_after_riichi ("Using Tenhou rule here"): "Cannot kan a '
            'waited tile"'
        ),
    ),
    Explained(
        peer="jansou (mjai)",
        what="chankan settled without the waiting kan indicator's dora",
        rulesets=frozenset({"majsoul-4p", "majsoul-3p"}),
        reason=(
            "the waiting indicator jansou leaves unplayed (the class above) is missing from its "
            "settlement of the chankan too. The class is only a settlement that is ours less "
            "exactly that indicator's han (its dora, and its ura dora for a riichi winner), "
            "valued by riichienv's calculate_score"
        ),
        evidence=(
            'as for "waiting kan indicator turned before a chankan left unplayed" above; '
            "majsoul-3p seed 6630, round 3 (E1), and majsoul-4p seed 23261, round 5 (E4)"
        ),
    ),
)


def explanation(peer: str, what: str, ruleset: str) -> Explained | None:
    for entry in EXPLAINED:
        if entry.covers(peer, what, ruleset):
            return entry
    return None
