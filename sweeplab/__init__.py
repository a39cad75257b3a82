"""sweeplab: how far linear algebra gets in deducing Minesweeper.

The public names follow ``SPEC.md``: positions (:class:`Observation`), the
clue system ``A x = b`` (:func:`clue_system`), the game engine
(:func:`new_game`, :class:`Game`) and the deduction methods (:func:`deduce`,
:data:`METHODS`).
"""

# first: the command's Ctrl-C while the rest imports (no traceback); the source's fingerprint as imported
from . import _command_line, provenance  # noqa: F401
from .agents import AGENTS, register_agent, unregister_agent
from .boards import generate_board, grade
from .clue_system import ClueSystem, clue_system
from .errors import InconsistentPositionError, MethodRefused
from .files import load_game, load_position, save_game, save_position
from .game import LEVELS, Game, new_game
from .methods import METHODS, Deduction, MethodInfo, deduce, register_method, unregister_method
from .plotting import plot_position
from .plotting_proofs import plot_proof, plot_proofs
from .positions import COVERED, FLAG, MINE, NOCLUE, Observation
from .probability import probabilities
from .proof_check import check_proof
from .proofs import Proof
from .provenance import package_version
from .simulate import play

__version__ = package_version()

__all__ = [
    "COVERED",
    "FLAG",
    "MINE",
    "NOCLUE",
    "AGENTS",
    "LEVELS",
    "METHODS",
    "ClueSystem",
    "Deduction",
    "Game",
    "InconsistentPositionError",
    "MethodInfo",
    "MethodRefused",
    "Observation",
    "Proof",
    "check_proof",
    "clue_system",
    "deduce",
    "generate_board",
    "grade",
    "load_game",
    "load_position",
    "new_game",
    "play",
    "plot_position",
    "plot_proof",
    "plot_proofs",
    "probabilities",
    "register_agent",
    "register_method",
    "save_game",
    "save_position",
    "unregister_agent",
    "unregister_method",
    "__version__",
]

# SWEEPLAB_PLUGINS=mod1,mod2 registers their methods and agents in any process importing sweeplab (README)
from . import methods as _methods  # noqa: E402 - once the whole API above is defined: plugins import it

_methods.search_current_folder()  # the sweeplab command finds plugins where python -m sweeplab does
_methods.load_env_plugins()
