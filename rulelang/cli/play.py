"""Play in the terminal: humans share one screen, bots move on their own."""

from __future__ import annotations

import time
from collections.abc import Callable

from rulelang import CHANCE, PUBLIC, Action, Game, search
from rulelang.cli.errors import never_ends
from rulelang.cli.terminal import clean
from rulelang.limits import DEFAULT_LIMITS
from rulelang.render.text import render_view
from rulelang.runtime import views

# home, erase the screen, and erase the scrollback too: the next player at the screen
# must not scroll up to the last one's private lines
CLEAR = "\033[H\033[2J\033[3J"

Reader = Callable[[str], str]
Writer = Callable[[str], None]


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
        self.seen_public: object = None  # a mark of the history (None: from the start)
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
            else:
                by_bots = 0
                self.human_move(who)
        self.finish()

    def names(self, p: int) -> str:
        return self.game.player_names[p]

    def public_news(self) -> list[str]:
        if self.omniscient:
            news = self.referee_news(self.seen_public)
        else:
            news = self.game.history(PUBLIC, since=self.seen_public)
        self.seen_public = self.game.mark()
        return news

    def referee_news(self, since: object, hidden_only: bool = False) -> list[str]:
        """Every line since the mark `since` (or only those not everyone saw); one not
        everyone saw is marked with whom it was said to ("(to Ann) ..."), or as hidden."""
        game = self.game
        public = game.history(PUBLIC, since=since)
        said = game.view(None, only=("private",))
        to = {
            t: ", ".join(names)
            for t, names in zip(said["private"], said["private_to"], strict=True)
        }
        to.update(views.audiences(game, since))  # secret rolls, picks and choices
        out = []
        for line in game.history(None, since=since):
            if line in public:
                public.remove(line)
                if not hidden_only:
                    out.append(line)
            else:
                out.append(f"(to {to[line]}) {line}" if line in to else f"(hidden) {line}")
        return out

    def private_news(self, who: int, since: object) -> list[str]:
        """The lines `who` sees since the mark `since` that not everyone sees."""
        public = self.game.history(PUBLIC, since=since)
        mine = []
        for line in self.game.history(who, since=since):
            if line in public:
                public.remove(line)
            else:
                mine.append(line)
        return mine

    def bot_move(self, who: int) -> None:
        # the bot's ties are drawn from the seat's generator, derived from the seed
        self.game.apply(search.bot_action(self.game, self.bots[who]))
        if self.after_move:
            self.after_move(self.game)
        for line in self.public_news():
            self.write(f"  {line}")
        if self.delay:
            time.sleep(self.delay)

    def human_move(self, who: int) -> None:
        game = self.game
        seen = None if self.omniscient else who
        if who != self.last_human and len(self.humans) > 1 and not self.omniscient:
            # Hide the last player's screen before the next one sits down.
            if self.clear:
                self.wipe()
            self.read(f"Pass the screen to {self.names(who)} and press Enter... ")
            if self.clear:
                self.wipe()
                if self.note:
                    self.write(self.note)
                    self.note = ""
        if who != self.last_human or game.turn_number != self.last_turn:
            self.write("")
            if self.omniscient:
                self.write("(the game master's view: everything, hidden or not)")
            self.write(render_view(game, game.view(seen)))
            self.write(
                "(answer with a number or the move's text; 'board' shows the board "
                "again, 'peek' asks the others to let you see the game master's log, "
                "'quit' leaves and saves)"
            )
        self.last_human = who
        self.last_turn = game.turn_number
        actions = game.legal_actions()
        self.write("")
        self.write(f"{self.names(who)}: {game.prompt()}")
        for i, a in enumerate(actions, 1):
            self.write(f"  {i:>2}. {a.text}")
        while True:
            answer = self.read("> ").strip()
            if answer.lower() in ("quit", "exit"):
                raise LeftGame
            if answer.lower() in ("?", "help", "board", "look"):
                self.write(render_view(game, game.view(seen)))
                continue
            if answer.lower() == "peek":
                self.peek(who)
                continue
            action = self.pick(actions, answer)
            if action is not None:
                before = game.mark()
                game.apply(action)
                if self.after_move:
                    self.after_move(game)
                # what only this player may know (a map's goal, a card taken) is shown
                # at once, while the screen is still theirs
                news = (
                    self.referee_news(before, hidden_only=True)
                    if self.omniscient
                    else self.private_news(who, before)
                )
                for line in news:
                    self.write(f"  {line}")
                self.seen_public = game.mark()
                return
            if not answer:
                continue
            if answer.isdigit():
                self.write(f"  There is no option {answer}: pick 1 to {len(actions)}.")
            else:
                self.write(f"  Not allowed: {game.why_not(answer)}")

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
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        wanted = " ".join(answer.split()).lower()
        for a in actions:
            if a.text.lower() == wanted:
                return a
        return None

    def finish(self) -> None:
        game = self.game
        final = game.view(None)
        for line in self.public_news():
            self.write(f"  {line}")
        self.write("")
        self.write("Game over.")
        self.write(render_view(game, final, log_tail=0))
        self.write("")
        for name, result in final.get("results", {}).items():
            self.write(f"  {name}: {result}")
