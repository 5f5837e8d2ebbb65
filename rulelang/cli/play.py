"""Play in the terminal: humans share one screen, bots move on their own."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from rulelang import CHANCE, PUBLIC, Action, Game, search
from rulelang.cli.errors import never_ends
from rulelang.cli.terminal import clean
from rulelang.limits import DEFAULT_LIMITS
from rulelang.render.text import PRIVATE_TAIL, render_view
from rulelang.runtime import views
from rulelang.runtime.engine import by_text

# home, erase the screen, and erase the scrollback too: the next player at the screen
# must not scroll up to the last one's private lines
CLEAR = "\033[H\033[2J\033[3J"

HINT = (
    "(answer with the option's number in the list or the move's text; 'board' shows the "
    "board again ('board --all' with the rule file's bookkeeping and every private message), "
    "'help' this line, "
    "'peek' asks the others to let you see the game master's log, 'quit' leaves and saves)"
)
NUMBERS = "  (the options are numbers: type one to pick it; #2 picks the second listed)"
INTEGER = re.compile(r"-?\d+")
# the words of the table's commands; an option of the same text is taken instead (the
# command has another word, and Ctrl-C leaves too)
COMMANDS = frozenset(
    ("quit", "exit", "?", "help", "board", "look", "board --all", "board all", "peek")
)

Reader = Callable[[str], str]
Writer = Callable[[str], None]


def numbered(actions: list[Action]) -> bool:
    """Whether every option reads as a whole number (a column, an amount): then a number
    typed is that option, not the option in that place of the list."""
    return all(INTEGER.fullmatch(a.text.strip()) for a in actions)


class LeftGame(Exception):
    """A player chose to leave (`quit`): not an interruption, the game is saved."""


class Table:
    def __init__(
        self,
        game: Game,
        bots: dict[int, str | None],
        read: Reader,
        write: Writer,
        clear: bool = True,
        delay: float = 0.0,
        after_move: Callable[[Game], None] | None = None,
        max_decisions: int = DEFAULT_LIMITS.decisions,
        omniscient: bool = False,
        note: str = "",
    ):
        self.game = game
        self.max_decisions = max_decisions  # bots alone, in a row (R010 past it)
        # the seats bots play, each with its bot's name, or None: the declared bots
        self.bots = bots
        self.after_move = after_move
        # what the table shows holds rule files' texts and players' names: escaped
        self._read = read
        self._write = write
        self.clear = clear
        self.delay = delay
        self.humans = [p for p in range(game.players) if p not in bots]
        # --omniscient: the screen shows the game master's view, every secret included
        self.omniscient = omniscient
        # a line said before play (the saved game's id), said again after the first
        # clearing of the screen, which would have wiped it
        self.note = note
        # whose lines the screen shows now: a human seat, or None before any human sat
        # down (then only what everyone sees); the omniscient screen shows all lines
        self.holder: int | None = None
        self.printed: object = None  # the history's mark up to which the screen told all
        self.seen_by: dict[int, object] = {}  # each human's mark at the end of their turn
        self.show_all = False  # `board --all`: bookkeeping attributes shown too
        self.last_human: int | None = None
        self.last_turn = -1

    def read(self, prompt: str) -> str:
        return self._read(clean(prompt))

    def write(self, text: str) -> None:
        self._write(clean(text))

    def wipe(self) -> None:
        """Clear the screen: the one escape sequence the table sends."""
        self._write(CLEAR)

    def run(self) -> None:
        game = self.game
        by_bots = 0  # decisions bots took since a human last played
        most = self.max_decisions
        while not game.is_over():
            who = game.current_player()
            if who == CHANCE:
                game.resolve_chance()
            elif who in self.bots:
                by_bots += 1
                if by_bots > most:
                    raise never_ends(
                        game, f"bots took {most} decisions in a row and the game did not end"
                    )
                self.bot_move(who)
            elif len(game.legal_actions()) == 1:
                # a forced choice is taken without asking: as a bot's, it counts
                # towards the decisions taken in a row with nobody asked
                by_bots += 1
                if by_bots > most:
                    raise never_ends(
                        game, f"{most} decisions were taken in a row and the game did not end"
                    )
                self.forced_move(who)
            else:
                by_bots = 0
                self.human_move(who)
        self.finish()

    def names(self, p: int) -> str:
        return self.game.player_names[p]

    def news(self, viewer: int | None, since: object) -> list[str]:
        """The lines `viewer` (None: everyone) saw since the mark `since`; on the
        omniscient screen every line, marked with whom it was said to."""
        if self.omniscient:
            return self.referee_news(since)
        return self.game.history(PUBLIC if viewer is None else viewer, since=since)

    def tell(self, lines: list[str]) -> None:
        """Print `lines`, the news of the screen's holder, and mark them told."""
        for line in lines:
            self.write(f"  {line}")
        self.printed = self.game.mark()

    def referee_news(self, since: object, hidden_only: bool = False) -> list[str]:
        """Every line since the mark `since` (or only those not everyone saw); one not
        everyone saw is marked with whom it was said to ("(to Ann) ..."), or as hidden."""
        out = []
        for line, to in views.referee_lines(self.game, since):
            if to is None:
                if not hidden_only:
                    out.append(line)
            else:
                out.append(f"(to {to}) {line}" if to else f"(hidden) {line}")
        return out

    def bot_move(self, who: int) -> None:
        # the bot's ties are drawn from the seat's generator, derived from the seed
        self.move_unasked(search.bot_action(self.game, self.bots[who]))
        if self.delay:
            time.sleep(self.delay)

    def hand_over(self, who: int) -> None:
        """Hot seat: the last holder clears the screen, the next one takes it; nothing
        said to either is on the screen, or in its scrollback, while the other holds it."""
        if self.holder is not None:
            # what the last holder's move told them stays until they have read it
            self.read(f"{self.names(self.holder)}: press Enter to clear the screen... ")
        if self.clear:
            self.wipe()
        self.read(f"Pass the screen to {self.names(who)} and press Enter... ")
        if self.clear:
            self.wipe()
            if self.note:
                self.write(self.note)
                self.note = ""

    def catch_up(self, who: int) -> None:
        """Print every line `who` may see that their screen has not shown yet: after a
        hand-over, all since the end of their last turn; otherwise all since the screen
        last told something (their own move's lines, the roll after it)."""
        hot_seat = len(self.humans) > 1 and not self.omniscient
        if hot_seat and who != self.holder:
            self.hand_over(who)
            since = self.seen_by.get(who)
            lines = self.news(who, since)
            if lines and who in self.seen_by:
                self.write("Since your last turn:")
        else:
            lines = self.news(who, self.printed)
        self.holder = who
        self.tell(lines)

    def show_board(self, who: int) -> None:
        seen = None if self.omniscient else who
        self.write("")
        if self.omniscient:
            self.write("(the game master's view: everything, hidden or not)")
        # the events are printed as they happen: the screen's board has no log tail
        game = self.game
        everything = self.show_all  # `board --all`: every private message, bookkeeping too
        tail = None if everything else PRIVATE_TAIL
        self.write(
            render_view(
                game, game.view(seen), log_tail=0, bookkeeping=everything, private_tail=tail
            )
        )

    def ask_label(self, who: int) -> str:
        """The question, led by the seat's name unless the rule file's prompt names it."""
        prompt = self.game.prompt()
        name = self.names(who)
        return prompt if prompt.startswith(name) else f"{name}: {prompt}"

    def human_move(self, who: int) -> None:
        game = self.game
        self.catch_up(who)
        self.board_once(who)
        actions = game.legal_actions()
        self.write("")
        self.write(self.ask_label(who))
        for i, a in enumerate(actions, 1):
            self.write(f"  {i:>2}. {a.text}")
        if numbered(actions):
            self.write(NUMBERS)
        while True:
            answer = self.read("> ").strip()
            action = self.answer(who, actions, answer)
            if action is not None:
                self.play(who, action)
                return

    def board_once(self, who: int) -> None:
        """The board, at the first decision of a player's turn (asked or forced: a card
        drawn is on the screen before a move it forces is taken)."""
        if who != self.last_human or self.game.turn_number != self.last_turn:
            self.show_board(who)
            self.write(HINT)
        self.last_human = who
        self.last_turn = self.game.turn_number

    def answer(self, who: int, actions: list[Action], answer: str) -> Action | None:
        """The action an answer picks, or None after acting on a command or refusing."""
        word = " ".join(answer.lower().split())
        if word in COMMANDS and (action := by_text(actions, answer)) is not None:
            return action  # an option named like a command (`peek` at a card) is the option
        if word in ("quit", "exit"):
            raise LeftGame
        if word in ("?", "help"):
            self.write(HINT)
            if numbered(actions):
                self.write(NUMBERS)
        elif word in ("board", "look", "board --all", "board all"):
            self.show_all = word.endswith("all")
            self.show_board(who)
            self.show_all = False
        elif word == "peek":
            self.peek(who)
        elif (action := self.pick(actions, answer)) is not None:
            return action
        elif answer:
            self.write(f"  {self.refusal(actions, answer)}")
        return None

    def refusal(self, actions: list[Action], answer: str) -> str:
        position = answer[1:] if answer.startswith("#") else answer
        by_place = answer.startswith("#") or not numbered(actions)
        if by_place and position.isascii() and position.isdigit():
            return f"There is no option {answer}: pick 1 to {len(actions)}."
        if numbered(actions) and INTEGER.fullmatch(answer):
            texts = ", ".join(a.text for a in actions)
            return f"{answer} is not one of the options ({texts}); #N picks the Nth listed."
        return f"Not allowed: {self.game.why_not(answer)}"

    def play(self, who: int, action: Action) -> None:
        """Apply a human's action and print, while the screen is still theirs, all it
        told them: their own move, what only they may know (a map's goal, a card taken)."""
        game = self.game
        before = game.mark()
        game.apply(action)
        if self.after_move:
            self.after_move(game)
        self.tell(self.news(who, before))
        self.seen_by[who] = game.mark()

    def forced_move(self, who: int) -> None:
        """A choice with one option: taken without asking, and shown as taken to its
        player when the screen is theirs (in hot seat, while another holds the screen,
        they read it in their next turn's news)."""
        (action,) = self.game.legal_actions()
        if self.holder == who or len(self.humans) == 1 or self.omniscient:
            self.catch_up(who)
            if who in self.humans:
                self.board_once(who)
            self.write(f"{self.ask_label(who)} {action.text} (the only option: taken)")
            self.play(who, action)
        else:
            self.move_unasked(action)

    def move_unasked(self, action: Action) -> None:
        """Apply a move nobody is asked about and print what the screen's holder saw."""
        self.game.apply(action)
        if self.after_move:
            self.after_move(self.game)
        self.tell(self.news(self.holder, self.printed))

    def peek(self, who: int) -> None:
        """Show the game master's log (every event as the referee sees it) only if every
        other player agrees, asked in turn; a bot seat always declines: it cannot judge
        the request, and a secret stays hidden unless all the humans let it out."""
        game = self.game
        others = [p for p in range(game.players) if p != who]
        bots = [self.names(p) for p in others if p in self.bots]
        agreed = not bots
        if bots:
            self.write(f"  {', '.join(bots)}: a bot always declines.")
        else:
            for p in others:
                answer = self.read(
                    f"{self.names(who)} wants to peek at the game master's log. "
                    f"{self.names(p)}, do you agree? [y/N] "
                )
                if answer.strip().lower() not in ("y", "yes"):
                    agreed = False
                    break
        if not agreed:
            self.write("  Not everyone agreed; nothing is shown.")
            return
        self.write("The game master's log:")
        for line in game.history(None):
            self.write(f"  {line}")

    @staticmethod
    def pick(actions: list[Action], answer: str) -> Action | None:
        """The action an answer names: its text; or its place in the list, a number
        (`#3` or `3`) - but where every option is a number, `3` is the option 3."""
        wanted = " ".join(answer.split()).lower()
        place = wanted[1:] if wanted.startswith("#") else wanted
        by_place = wanted.startswith("#") or not numbered(actions)
        if by_place and place.isascii() and place.isdigit():  # not '²'
            return actions[int(place) - 1] if 1 <= int(place) <= len(actions) else None
        return by_text(actions, answer)

    def finish(self) -> None:
        game = self.game
        final = game.view(None)
        self.tell(self.news(self.holder, self.printed))
        self.write("")
        self.write("Game over.")
        self.write(render_view(game, final, log_tail=0, bookkeeping=False))
        self.write("")
        for name, result in final.get("results", {}).items():
            self.write(f"  {name}: {result}")
        reason = game.end_reason()
        if reason is not None:  # which end rule fired, for the designer playing it through
            self.write(f"  ended by {reason}")
