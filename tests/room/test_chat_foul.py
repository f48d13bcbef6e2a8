"""Table chat (RULEBOOK §10.7): foul words seen through their disguises, and honest words let by."""

from __future__ import annotations

import re

import pytest

from cardroom.ledger.aliases import default_words
from cardroom.room.chat import (
    FOUL_LANGUAGE,
    OK,
    ChatRules,
    TableChat,
    Vocabulary,
    default_vocabulary,
)


def _chat() -> TableChat:
    return TableChat(ChatRules(burst=10_000))


@pytest.mark.parametrize(
    "text",
    [
        "fu\u200bck you",  # zero-width space
        "fuc\u200dk",  # zero-width joiner
        "sh\u2060it",  # word joiner
        "fu\u00adck",  # soft hyphen
        "fu\u0441k",  # Cyrillic es
        "\u0455hit",  # Cyrillic dze
        "\u0392\u0399\u03a4C\u0397",  # Greek capitals: BITCH
        "\uff46\uff55\uff43\uff4b",  # full-width
        "\U0001d41f\U0001d42e\U0001d41c\U0001d424",  # mathematical bold
        "f\u00facking",  # accented letter
        "fu\u0301ck",  # combining acute
        "f.u.c.k",
        "f u c k off",
        "s-h i.t",
        "fu ck",
        "$hit",
        "sh!t",
        "a$$hole",
        "fu cking idiot",  # short pieces run into a longer word: the foul word, then "ing"
        "f u cking",
        "bi tches",
        "pi ssed off",
        "fck off",
        "fvck",
        "phuck you",
        "fuc k you",  # a longer word runs on into single letters
        "what a shi t river",
        "bitc h",
        "sh*t",  # letters hidden behind masks, one each
        "c*nt",
        "what the f**k",
        "s#it",
        "a**hole",
        "bullsh*t",
        "sh*tty river",
        "kkk",  # a letter three times running in the list itself
        "k k k",
        "kkkkkkk",
        "you dumbass",  # abuse the list missed
        "jackass",
        "smartass",
        "asswipe",
        "stfu",
        "kys",
    ],
)
def test_10_7_disguised_foul_words_are_caught(text: str) -> None:
    verdict = _chat().say("troll", text, now=0.0)
    assert (verdict.code, verdict.offence) == (FOUL_LANGUAGE, True), text
    assert verdict.text is not None and "*" in verdict.text


@pytest.mark.parametrize(
    "text",
    [
        "f - u - c - k",  # a dash or an underscore standing alone between the letters
        "f _ u _ c _ k",
        "s - h - i - t",
        "f\u3164uck",  # Hangul fillers: letters that show nothing
        "f\u115fuck",
        "sh\uffa0it",
        "\ua730\u1d1c\u1d04\u1d0b",  # small capitals: FUCK
        "\u1d04\u1d1c\u0274\u1d1b",  # CUNT
        "f\u03bcck",  # Greek mu
        "f\u03c5\u03c2\u03ba",  # Greek upsilon, final sigma, kappa
        "fu\u03f2k",  # Greek lunate sigma
        "\u0493uck",  # Cyrillic ghe with stroke
        "\u0282hit",  # s with hook
        "\U0001f175\U0001f184\U0001f172\U0001f17a",  # negative squared letters
        "\U0001f155\U0001f164\U0001f152\U0001f15a",  # negative circled letters
        "\U0001f1eb\U0001f1fa\U0001f1e8\U0001f1f0",  # regional indicators
        "\u00a2unt",  # a cent sign for a c
        "sh|t",  # a bar for an i
        "b|tch",
    ],
)
def test_10_7_foul_words_behind_other_disguises_are_caught(text: str) -> None:
    verdict = _chat().say("troll", text, now=0.0)
    assert (verdict.code, verdict.offence) == (FOUL_LANGUAGE, True), text


def test_10_7_a_masked_disguise_masks_the_whole_word() -> None:
    assert _chat().say("troll", "ok f u c k you", now=0.0).text == "ok ******* you"
    assert _chat().say("troll", "go \uff46\uff55\uff43\uff4b!", now=0.0).text == "go ****!"
    assert _chat().say("troll", "ok fu cking idiot", now=0.0).text == "ok ******** idiot"
    assert _chat().say("troll", "what bullsh*t, f**k", now=0.0).text == "what ********, ****"


@pytest.mark.parametrize(
    "text",
    [
        "Scunthorpe United won",
        "shiitake mushrooms",
        "a niggling doubt",
        "swanky new table",
        "Penistone is near Sheffield",
        "flame retardant",
        "Matsushita",
        "class act",
        "let me assess that",
        "grape juice",
        "hand analysis",
        "cocktail hour",
        "hell of a hand",
        "I pass",
        "what a suck out",
        "a.k.a. the fish",
        "J.T. is here",
        "A K Q J T",
        "u.s.a. number one",
        "c u later",
        "it is as it is",
        "ugly as sin",  # "ass" is too short to be read across a break
        "as sick as a dog",
        "is hit by a car",  # "shit" would start inside "is"
        "kung fu movies",
        "$5 and $$$",
        "the pen is mightier",
        "\u0440\u0443\u0441\u0441\u043a\u0438\u0439 \u044f\u0437\u044b\u043a",  # Russian text
        "caf\u00e9 au lait",
        "\u5927\u4e08\u592b",  # Chinese text
        "I had Q J",  # single letters after a word: cards, not a word's end
        "I hit a K",
        "a sho t",
        "f***",  # masked past knowing which word it was
        "n*ce hand",
        "2*3=6",
        "I *really* mean it",
        "a 5* hotel",
        "A*K",
        "gg - nice - hand",
        "a 5\u00a2 ante",
        "fold | call | raise",
        "\u1d04\u029f\u1d00\ua731\ua731 act",  # small capitals: class
        "\U0001f1eb\U0001f1f7 \U0001f1e9\U0001f1ea",  # the flags of France and Germany
    ],
)
def test_10_7_honest_words_are_not_foul(text: str) -> None:
    verdict = _chat().say("ann", text, now=0.0)
    assert (verdict.code, verdict.text) == (OK, text), text


@pytest.mark.parametrize(
    "text",
    [
        "tit for tat",
        "a tit-for-tat reraise",
        "summa cum laude",
        "Homo sapiens",
        "Moby Dick",
        "Fukushima",
    ],
)
def test_10_7_innocent_phrases_are_not_foul(text: str) -> None:
    """A phrase of ``[innocent]`` reads its words as innocent, there only: "tit" or
    "dick" alone is still foul (a name "Dick" cannot be told from the insult)."""
    assert _chat().say("ann", text, now=0.0).code == OK, text


def test_10_7_an_innocent_phrase_shelters_only_itself() -> None:
    for text in ("nice tits", "tit for you", "you dick", "Dick's sporting goods", "cum on"):
        assert _chat().say("troll", text, now=0.0).code == FOUL_LANGUAGE, text
    assert _chat().say("troll", "tit for tat, fuck you", now=0.0).text == "tit for tat, **** you"


def test_10_7_an_innocent_word_does_not_shelter_a_foul_one() -> None:
    assert _chat().say("troll", "scunthorpefuck", now=0.0).code == FOUL_LANGUAGE
    assert _chat().say("troll", "shiitakeshit", now=0.0).code == FOUL_LANGUAGE


def test_10_7_format_characters_are_dropped_from_the_line_sent() -> None:
    # A right-to-left override would flip the rest of the chat line for every reader;
    # zero-width characters would hide a word's break.
    verdict = _chat().say("ann", "nice \u202ehand\u202c gg\u200b", now=0.0)
    assert verdict.text == "nice hand gg"


def test_10_7_stacked_combining_marks_are_capped() -> None:
    zalgo = "h" + "\u0301" * 150 + "i"
    verdict = _chat().say("ann", zalgo, now=0.0)
    assert verdict.code == OK and verdict.text is not None
    assert len(verdict.text) <= 6
    assert _chat().say("ann", "caf\u0065\u0301", now=0.0).text == "caf\u0065\u0301"


def test_10_7_innocent_words_are_data() -> None:
    assert "scunthorpe" in default_words().innocent  # single words: the alias list's
    assert "tit for tat" in default_vocabulary().innocent
    custom = Vocabulary.parse(["[innocent]", "Grasshopper  # holds no foul word", "[tlds]", "com"])
    assert custom.innocent == ("grasshopper",)
    chat = TableChat(ChatRules(burst=10), vocabulary=Vocabulary.parse(["[tlds]", "com"]))
    assert chat.say("ann", "tit for tat", now=0.0).code == FOUL_LANGUAGE  # not in this list
    assert chat.say("ann", "Scunthorpe", now=0.0).code == OK  # the alias list's "+" word


@pytest.mark.parametrize(
    "text",
    [
        "f." * 250,  # single letters: each could start or end a word spelled out
        " ".join("bcdfghjklmnpqrstvwxz"[i % 20] for i in range(250)),
        "\u24a1" * 500,  # "(f)": one character, one piece
        "\ufb00 " * 250,  # "ff": a ligature, two letters a piece
        "\ufb00" * 500,  # four hundred f's in one word
    ],
)
def test_10_7_a_hostile_line_is_read_in_few_tries(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chat line is judged well under 10 ms: each reading of the word list costs some
    20 microseconds, and these lines used to be read a thousand times and more (14 to
    23 ms each); now only pieces that could still make a listed word are. A letter
    stretched hundreds of times is read as three (its patterns tried at every letter of
    the stretch cost 8 ms)."""
    from cardroom.room import chat_text

    words: list[str] = []
    real = chat_text.offensive_match

    def counted(word: str) -> str | None:
        words.append(word)
        return real(word)

    monkeypatch.setattr(chat_text, "offensive_match", counted)
    assert _chat().say("troll", text, now=0.0).code == OK
    assert len(words) <= 40, len(words)
    assert not any(re.search(r"(.)\1\1\1", word) for word in words)


@pytest.mark.parametrize(
    "text",
    [
        "Kshitij is my friend",
        "Harshit says hi",
        "a mishit",
        "Fukuoka is nice",
        "Nazir",
        "Wankel",
        "hi Ms Hannigan",
        "forza Nazionale",
    ],
)
def test_10_7_names_holding_a_foul_word_are_not_foul(text: str) -> None:
    """The alias list's innocent words (``+`` entries) are honest in chat too."""
    assert _chat().say("ann", text, now=0.0).code == OK, text
