"""The explorer in a real browser: JupyterLab on 127.0.0.1, notebook 12 in headless Chromium.

JupyterLab runs from this interpreter on a free port with a token, in a temporary
directory holding a copy of ``notebooks/12_explorer.ipynb`` (so nothing in the
checkout is saved over) and its own configuration.  Debian's ``chromium`` and
``chromium-driver``, driven with selenium, run the notebook and use the board as a
person would: click, right click, flag mode, methods, hover, the matrix panels, a
game played to its end with clicks only, new games, another level.  Every check
compares the DOM with a game replayed here from the same seed, so the board is
shown to hold exactly what the game holds.  Screenshots go to a temporary directory
(``SWEEPLAB_SCREENSHOTS`` to choose it); the test skips, saying why, where no
Chromium and chromedriver are installed.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import sweeplab

pytest.importorskip("selenium")
from selenium.common.exceptions import TimeoutException  # noqa: E402

# a minute or more: outside the default `make test`; `make test-browser` (and CI) runs it
pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "12_explorer.ipynb"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1500,1400"]
WAIT = 60  # seconds for one action to reach the board (a kernel round trip, usually well under one)


def _chromium() -> tuple[str, str] | None:
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ("/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver") if os.path.exists(p)), None)
    return (browser, driver) if browser and driver else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _settings(config: Path) -> None:
    """Lab settings for a quiet, fully rendered page: no news or update checks, no cell windowing."""
    user = config / "lab" / "user-settings" / "@jupyterlab"
    for path, value in [
        ("apputils-extension/notification", {"checkForUpdates": False, "fetchNews": "false"}),
        ("notebook-extension/tracker", {"windowingMode": "none"}),
    ]:
        file = user / f"{path}.jupyterlab-settings"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(value))


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory):
    """A JupyterLab server on 127.0.0.1 serving a copy of the explorer notebook; yields its base URL."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    config = tmp_path_factory.mktemp("jupyter-config")
    _settings(config)
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config), "JUPYTER_RUNTIME_DIR": str(config / "runtime"),
           "SWEEPLAB_PRESET": "smoke"}
    env.pop("MPLBACKEND", None)
    log_path = root / "lab.log"
    log = log_path.open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={root}", "--allow-root", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         # window.jupyterapp: the command registry, to restart and run all without hunting a toolbar button
         "--LabApp.expose_app_in_browser=True"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab did not start:\n{log_path.read_text()}") from None
                time.sleep(0.5)
        yield f"{base}/lab/tree/{NOTEBOOK.name}?token={token}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("SWEEPLAB_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def page(lab: str, shots: Path, tmp_path_factory: pytest.TempPathFactory):
    """Chromium on the notebook, every cell run, scrolled to the board."""
    found = _chromium()
    if found is None:
        pytest.skip("no Chromium and chromedriver found (Debian: apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.common.by import By

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=found[1]))
    try:
        driver.get(lab)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".jp-Notebook .jp-Cell"), 120)
        wait(driver, lambda d: _kernel_idle(d), 120)
        _run_all(driver, shots)
        yield driver
    except Exception:
        driver.save_screenshot(str(shots / "00-setup-failed.png"))
        # what the page showed, for a CI log without the screenshot (pytest prints it with the error)
        print(f"page {driver.current_url!r}, {driver.title!r}:\n"
              + str(driver.execute_script("return document.body.innerText"))[:3000])
        raise
    finally:
        driver.quit()


def _run_all(driver, shots: Path) -> None:
    """Restart the kernel and run every cell (Restart Kernel and Run All Cells) until the board is drawn.

    The command goes through JupyterLab's command registry rather than the notebook
    toolbar's button: the toolbar lays itself out after the cells, and one CI machine
    found no button there (the run then failed before any check).  A command sent
    while the session still settles can be lost, or answered by a kernel dialog:
    dialogs are accepted, and the command repeated.  A kernel connection broken during
    the restart (seen once under load: the server could not read a websocket frame,
    and the cells stayed queued) leaves the board undrawn: the page is reloaded, for a
    new connection, and the run repeated.
    """
    from selenium.webdriver.common.by import By

    board_cells = (By.CSS_SELECTOR, ".sl-board .sl-cell")

    def prompts(d):
        return d.find_elements(By.CSS_SELECTOR, ".jp-InputPrompt")

    deadline = time.monotonic() + 900
    attempt = 0
    while time.monotonic() < deadline:
        attempt += 1
        try:
            wait(driver, lambda d: _accept_dialogs(d) or d.execute_script(_RESTART_RUN_ALL), 120)
            wait(driver, lambda d: _accept_dialogs(d) or any(re.search(r"\[(\d+|\*)\]", p.text)
                                                             for p in prompts(d)), 30)
            # a first kernel in a fresh environment can take minutes to start (imports, compile caches)
            wait(driver, lambda d: _accept_dialogs(d) or len(d.find_elements(*board_cells)) == 81, 300)
            return
        except TimeoutException:
            driver.save_screenshot(str(shots / f"00-run-all-attempt-{attempt}.png"))
            driver.refresh()
            wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".jp-Notebook .jp-Cell"), 120)
    raise TimeoutException("Restart and Run All never drew the board")


# true once the command is sent; false (to wait) while the app or the notebook is not ready for it
_RESTART_RUN_ALL = """
    const app = window.jupyterapp, id = 'notebook:restart-run-all';
    if (!app || !app.commands.hasCommand(id) || !app.commands.isEnabled(id)) return false;
    app.commands.execute(id);
    return true;
"""


def _accept_dialogs(driver) -> bool:
    """Accept the dialogs on screen (restart the kernel, select the kernel); always False, to keep waiting."""
    for accept in driver.find_elements("css selector", ".jp-Dialog .jp-Dialog-button.jp-mod-accept"):
        accept.click()
    return False


def _kernel_idle(driver) -> bool:
    return bool(driver.execute_script(
        "const s = document.querySelector('.jp-Notebook-ExecutionIndicator');"
        "return s && s.getAttribute('data-status') === 'idle';"))


def wait(driver, condition, timeout: float = WAIT):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # the widget redraws its panels on every state change: an element found just before a redraw is
    # stale, so the condition is simply tried again
    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def board(driver) -> dict:
    """What the board shows: the cell codes, the method's marks, the status chip, the message."""
    return driver.execute_script("""
        const root = document.querySelector('.sweeplab-explorer');
        const cells = [...root.querySelectorAll('g.sl-cell')];
        const rows = 1 + Math.max(...cells.map(g => +g.dataset.row));
        const cols = 1 + Math.max(...cells.map(g => +g.dataset.col));
        const grid = Array.from({length: rows}, () => Array(cols).fill(null));
        const marks = {safe: [], mine: []};
        for (const g of cells) {
            grid[+g.dataset.row][+g.dataset.col] = +g.dataset.value;
            if (g.dataset.mark) marks[g.dataset.mark].push([+g.dataset.row, +g.dataset.col]);
        }
        return {grid, marks, status: root.querySelector('.sl-chip').textContent,
                message: (root.querySelector('.sl-message') || {}).textContent || '',
                flags: root.querySelectorAll('.sl-board .sl-flag').length,
                proof: root.querySelectorAll('.sl-board .sl-proof-clue').length};
    """)


def snap(driver, path: Path) -> None:
    """A screenshot of the page, scrolled to the explorer."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", control(driver, ""))
    driver.save_screenshot(str(path))


def on_cell(driver, r: int, c: int, action: str = "click") -> None:
    """Click, right click or hover a cell (every update redraws the board: stale cells are found again)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver import ActionChains

    for _ in range(10):
        try:
            target = cell(driver, r, c)
            if action == "click":
                target.click()
            elif action == "right":
                ActionChains(driver).context_click(target).perform()
            else:
                ActionChains(driver).move_to_element(target).perform()
            return
        except StaleElementReferenceException:
            time.sleep(0.2)
    raise AssertionError(f"cell ({r},{c}) kept being redrawn")


def cell(driver, r: int, c: int):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f".sl-board .sl-cell[data-row='{r}'][data-col='{c}']")


def margin(driver) -> int:
    """The margin of the row and column numbers above and left of the cells (px, unscaled)."""
    return int(control(driver, "svg.sl-board").get_attribute("data-margin"))


def control(driver, css: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f".sweeplab-explorer {css}".strip())


def shows(driver, game: sweeplab.Game) -> bool:
    b = board(driver)
    return b["grid"] == game.observation.grid.tolist() and b["status"] == game.status


def select(driver, css: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(control(driver, css)).select_by_value(value)


def marks_of(game: sweeplab.Game, method: str) -> dict:
    d = sweeplab.deduce(game.observation, method)
    return {"safe": sorted(map(list, d.safe)), "mine": sorted(map(list, d.mines))}


def covered(game: sweeplab.Game) -> list[tuple[int, int]]:
    return [tuple(map(int, rc)) for rc in np.argwhere(game.observation.grid == sweeplab.COVERED)]


@pytest.fixture(scope="module")
def game() -> sweeplab.Game:
    """The notebook's last cell: a beginner game, seed 7, first click opening a zero."""
    return sweeplab.new_game("beginner", first_click="zero", seed=7)


def test_the_notebook_ends_on_a_new_game(page, game, shots):
    assert shows(page, game)
    assert board(page)["status"] == "playing"
    snap(page, shots / "01-new-game.png")


def first_click(page, game) -> None:
    """The click at (4, 4) that opens the board (the tests share one game, in order; each runs alone too)."""
    if not (game.observation.grid >= 0).any():
        on_cell(page, 4, 4)
        game.reveal(4, 4)
        wait(page, lambda d: shows(d, game))


def test_click_reveals_what_the_game_holds(page, game, shots):
    first_click(page, game)
    assert (game.observation.grid >= 0).sum() > 1
    snap(page, shots / "02-first-click.png")


def test_right_click_and_flag_mode_flag_and_unflag(page, game):
    r, c = covered(game)[0]
    on_cell(page, r, c, "right")
    game.flag(r, c)
    wait(page, lambda d: shows(d, game))
    assert cell(page, r, c).get_attribute("data-state") == "flag"
    # JupyterLab's own menu (copy, cut, delete cell...) must not open over the board: a reviewer saw it
    assert page.execute_script("return document.querySelectorAll('.lm-Menu').length") == 0
    on_cell(page, r, c, "right")
    game.unflag(r, c)
    wait(page, lambda d: shows(d, game))
    assert cell(page, r, c).get_attribute("data-state") == "covered" and board(page)["flags"] == 0
    control(page, "button.sl-flag-mode").click()
    wait(page, lambda d: "sl-active" in control(d, "button.sl-flag-mode").get_attribute("class"))
    on_cell(page, r, c)
    game.flag(r, c)
    wait(page, lambda d: shows(d, game))
    on_cell(page, r, c)
    game.unflag(r, c)
    wait(page, lambda d: shows(d, game))
    control(page, "button.sl-flag-mode").click()
    wait(page, lambda d: "sl-active" not in control(d, "button.sl-flag-mode").get_attribute("class"))


def test_the_board_plays_from_the_keyboard(page, game):
    """A reviewer: no cell could be reached from the keyboard.  Arrows move, F flags, Enter reveals."""
    from selenium.webdriver.common.keys import Keys

    first_click(page, game)
    safe = sorted(c for c in sweeplab.deduce(game.observation, "enumerate").safe
                  if game.observation.grid[c] == sweeplab.COVERED)
    assert safe, "the opened board of seed 7 has a safe cell to reveal from the keyboard"
    r, c = safe[0]
    on_cell(page, r, c, "hover")  # hovered, not chosen from the keyboard: Space and Enter reveal nothing
    target = control(page, "svg.sl-board")
    page.execute_script("arguments[0].focus()", target)
    target.send_keys(Keys.SPACE, Keys.ENTER)
    time.sleep(0.5)
    assert shows(page, game) and cell(page, r, c).get_attribute("data-state") == "covered"
    # the pointer rests on another cell: redraws must not hand it the keyboard's selection
    on_cell(page, *next(x for x in covered(game) if x != (r, c)), "hover")
    h, w = game.shape  # to the corner first (the cursor starts at the cell last hovered), then to (r, c)
    target.send_keys(*[Keys.ARROW_UP] * h, *[Keys.ARROW_LEFT] * w, *[Keys.ARROW_RIGHT] * c,
                     *[Keys.ARROW_DOWN] * r, "f")
    game.flag(r, c)
    wait(page, lambda d: shows(d, game))
    assert cell(page, r, c).get_attribute("data-state") == "flag"
    control(page, "svg.sl-board").send_keys("f")
    game.unflag(r, c)
    wait(page, lambda d: shows(d, game))
    # keys with a modifier are the browser's and JupyterLab's: Ctrl+F finds, Shift/Ctrl+Enter run a cell
    for chord in (Keys.CONTROL + "f", Keys.ALT + "f", Keys.SHIFT + Keys.ENTER, Keys.CONTROL + Keys.ENTER):
        control(page, "svg.sl-board").send_keys(chord)
        time.sleep(0.5)
        assert shows(page, game) and cell(page, r, c).get_attribute("data-state") == "covered", chord
    control(page, "svg.sl-board").send_keys(Keys.ENTER)  # Enter reveals the cell under the cursor
    game.reveal(r, c)
    wait(page, lambda d: shows(d, game))
    assert page.execute_script("return document.querySelectorAll('.lm-Menu').length") == 0


def test_methods_draw_their_deductions_and_proofs(page, game, shots):
    first_click(page, game)
    for method in ("trivial", "enumerate"):
        select(page, "select.sl-method", method)
        expected = marks_of(game, method)
        wait(page, lambda d, e=expected: {k: sorted(v) for k, v in board(d)["marks"].items()} == e)
    deduced = sweeplab.deduce(game.observation, "enumerate", proofs=True)
    target = min(deduced.safe | deduced.mines)
    on_cell(page, *target, "hover")
    proof = deduced.proofs[target]
    wait(page, lambda d: proof.explain(game.observation) in control(d, ".sl-info").text)
    clues = {src for src in proof.sources if src != "total"}
    assert board(page)["proof"] == len(clues)
    control(page, ".sl-probs input").click()  # drawn on the cells no mark covers
    undecided = len(covered(game)) - len(sweeplab.deduce(game.observation, "enumerate"))
    wait(page, lambda d: d.find_elements("css selector", ".sweeplab-explorer .sl-scale"))
    assert len(page.find_elements("css selector", ".sl-board .sl-prob")) == undecided
    snap(page, shots / "03-method-proof-probabilities.png")

    control(page, "button.sl-panel-matrix").click()
    equations = sweeplab.clue_system(game.observation).n_equations
    rows = ".sweeplab-explorer .sl-matrix tbody tr"
    wait(page, lambda d: len(d.find_elements("css selector", rows)) == equations)
    highlighted = page.find_elements("css selector", ".sweeplab-explorer .sl-matrix tr.sl-row-proof")
    assert len(highlighted) == len(clues | ({"total"} & set(proof.sources)))
    snap(page, shots / "04-matrix.png")
    control(page, "button.sl-panel-rref").click()
    wait(page, lambda d: "rank" in control(d, ".sl-matrix-note").text)
    # the panel never squeezes the board: 9 cells of 34 px and the margin of the row numbers
    assert control(page, "svg.sl-board").size["width"] == 9 * 34 + margin(page) and margin(page) >= 20
    snap(page, shots / "05-rref.png")


def test_a_proofs_badges_and_total_leave_the_clues_readable(page, game):
    """A reviewer: on the first row a clue's multiplier badge hid its digit, and a proof's total (it has no
    cell) was drawn nowhere on the board."""
    first_click(page, game)
    select(page, "select.sl-method", "enumerate")
    deduced = sweeplab.deduce(game.observation, "enumerate", proofs=True)
    note = ".sl-legend .sl-proof-total"
    for target in sorted(deduced.proofs):
        if game.observation.grid[target] == sweeplab.COVERED:
            on_cell(page, *target, "hover")
            wait(page, lambda d, t=target: d.find_elements("css selector", ".sl-board .sl-proof-clue")
                 and f"({t[0]},{t[1]})" in control(d, ".sl-info-cell").text)
            uses_total = "total" in deduced.proofs[target].sources
            assert ("total number of mines" in control(page, note).text) == uses_total, target
    # clues on the first row: reveal the safe cells of row 0, then hover what their clues prove
    for r, c in sorted(deduced.safe):
        if r == 0 and game.observation.grid[r, c] == sweeplab.COVERED:
            on_cell(page, r, c)
            game.reveal(r, c)
            wait(page, lambda d: shows(d, game))
    deduced = sweeplab.deduce(game.observation, "enumerate", proofs=True)
    firsts = [t for t, p in sorted(deduced.proofs.items()) if game.observation.grid[t] == sweeplab.COVERED
              and any(src != "total" and src[0] == 0 for src in p.sources)]
    assert firsts, "revealing row 0 of seed 7 leaves cells proved from its clues"
    for target in firsts:
        on_cell(page, *target, "hover")
        wait(page, lambda d: d.find_elements("css selector", ".sl-board .sl-proof-badge[data-row='0']"))
        # each badge ends above the top quarter of its clue's cell: the digit in the middle stays readable
        overlaps = page.execute_script("""
            return [...document.querySelectorAll('.sweeplab-explorer .sl-proof-badge')].map(b => {
                const at = `[data-row='${b.dataset.row}'][data-col='${b.dataset.col}']`;
                const cell = document.querySelector(`.sweeplab-explorer .sl-cell${at} rect`)
                    .getBoundingClientRect();
                return (b.getBoundingClientRect().bottom - cell.top) / cell.height;
            });""")
        assert overlaps and max(overlaps) <= 0.25, (target, overlaps)


def test_row_and_column_numbers_name_the_cells_as_proofs_do(page, game):
    """A teacher: proofs say "(2,5)", the board had no numbers to find it by."""
    first_click(page, game)
    h, w = game.shape
    for axis, n in (("row", h), ("col", w)):
        labels = page.find_elements("css selector", f".sl-board .sl-axis-{axis}")
        assert [x.text for x in labels] == [str(i) for i in range(n)]
    # each number sits beside its own row or column of cells
    for r, c in ((0, 0), (h - 1, w - 1), (3, 5)):
        box = cell(page, r, c).rect
        row = control(page, f".sl-axis-row[data-index='{r}']").rect
        col = control(page, f".sl-axis-col[data-index='{c}']").rect
        assert box["y"] <= row["y"] + row["height"] / 2 <= box["y"] + box["height"] and row["x"] < box["x"]
        assert box["x"] <= col["x"] + col["width"] / 2 <= box["x"] + box["width"] and col["y"] < box["y"]
    on_cell(page, 3, 5, "hover")  # the hovered cell's numbers stand out
    wait(page, lambda d: [x.get_attribute("data-index") for x in
                          d.find_elements("css selector", ".sl-board .sl-axis-on")] == ["3", "5"])


def test_deductions_hide_to_play_unaided(page, game):
    """Cleared, the deductions box hides the marks, the proofs and what the hover line would give away."""
    first_click(page, game)
    select(page, "select.sl-method", "enumerate")
    deduced = sweeplab.deduce(game.observation, "enumerate", proofs=True)
    wait(page, lambda d: board(d)["marks"]["safe"] == sorted(map(list, deduced.safe)))
    probabilities_on = control(page, ".sl-probs input").is_selected()
    control(page, ".sl-marks input").click()
    wait(page, lambda d: board(d)["marks"] == {"safe": [], "mine": []})
    target = min(deduced.proofs)
    on_cell(page, *target, "hover")
    wait(page, lambda d: control(d, ".sl-info-cell").text.startswith(f"({target[0]},{target[1]})"))
    info = control(page, ".sl-info").text
    assert "proof" not in info and "deduce" not in info and board(page)["proof"] == 0
    assert ("P(mine)" in info) == probabilities_on
    legend = control(page, ".sl-legend").text
    assert "method: safe" not in legend
    if probabilities_on:  # every covered cell then shows its probability, deduced or not
        assert len(page.find_elements("css selector", ".sl-board .sl-prob")) == len(covered(game))
    control(page, ".sl-marks input").click()
    wait(page, lambda d: board(d)["marks"]["safe"] == sorted(map(list, deduced.safe))
         and board(d)["proof"] > 0)


def test_play_to_the_end_with_clicks(page, game, shots):
    control(page, "button.sl-panel-none").click()
    wait(page, lambda d: not d.find_elements("css selector", ".sweeplab-explorer .sl-matrix-note"))
    while game.status == "playing":
        d = sweeplab.deduce(game.observation, "enumerate")
        if d.safe:
            r, c = min(d.safe)
        else:
            obs = game.observation
            p = np.where(obs.grid == sweeplab.COVERED, sweeplab.probabilities(obs), 2)
            r, c = map(int, np.unravel_index(np.argmin(p), p.shape))
        on_cell(page, r, c)
        game.reveal(r, c)
        wait(page, lambda drv: shows(drv, game))
    snap(page, shots / f"06-game-{game.status}.png")
    r, c = covered(game)[0] if covered(game) else (0, 0)
    on_cell(page, r, c)  # a finished game takes no more moves
    time.sleep(1)
    assert shows(page, game)


def test_new_game_clears_the_board(page, game, shots):
    flagged = next(iter(covered(game)), None)
    if flagged and game.status == "playing":
        on_cell(page, *flagged, "right")
        game.flag(*flagged)
        wait(page, lambda d: shows(d, game))
    cells = len(page.find_elements("css selector", ".jp-Notebook .jp-Cell"))
    control(page, "button.sl-new").click()
    fresh = sweeplab.new_game("beginner", first_click="zero", seed=8)  # the notebook's seed, plus one
    wait(page, lambda d: shows(d, fresh))
    # a reviewer: with New game focused, JupyterLab's "d d" deleted the board's cell and "b" added one
    assert "sl-new" in page.switch_to.active_element.get_attribute("class")
    page.switch_to.active_element.send_keys("d", "d", "b", "a")
    time.sleep(0.5)
    assert len(page.find_elements("css selector", ".jp-Notebook .jp-Cell")) == cells
    b = board(page)
    assert b["flags"] == 0 and b["proof"] == 0 and b["marks"] == {"safe": [], "mine": []}
    assert "seed 8" in b["message"]
    snap(page, shots / "07-new-game-clean.png")


def test_a_lost_game_shows_the_layout_and_the_wrong_flag(page, shots):
    control(page, "button.sl-new").click()
    lost = sweeplab.new_game("beginner", first_click="zero", seed=9)
    wait(page, lambda d: "seed 9" in board(d)["message"])
    on_cell(page, 4, 4)
    lost.reveal(4, 4)
    wait(page, lambda d: shows(d, lost))
    layout = lost.layout
    wrong = next(c for c in covered(lost) if not layout[c])
    on_cell(page, *wrong, "right")
    lost.flag(*wrong)
    wait(page, lambda d: shows(d, lost))
    mine = next(c for c in covered(lost) if layout[c])
    on_cell(page, *mine)
    lost.reveal(*mine)
    wait(page, lambda d: shows(d, lost) and d.find_elements("css selector", ".sl-board .sl-wrong"))
    assert len(page.find_elements("css selector", ".sl-board .sl-wrong")) == 1
    legend = control(page, ".sl-legend").text
    assert all(x in legend for x in ("mine stepped on", "mine left covered", "wrong flag")), legend
    on_cell(page, *wrong, "hover")
    wait(page, lambda d: "a wrong flag" in control(d, ".sl-info-cell").text)
    other = next(c for c in covered(lost) if layout[c] and c != mine)
    on_cell(page, *other, "hover")
    wait(page, lambda d: control(d, ".sl-info-cell").text == f"({other[0]},{other[1]}): covered, a mine")
    snap(page, shots / "07b-lost-wrong-flag.png")


def test_expert_board_with_the_rref_panel(page, shots):
    select(page, "select.sl-level", "expert")
    expert = sweeplab.new_game("expert", first_click="zero", seed=10)
    wait(page, lambda d: shows(d, expert))
    on_cell(page, 8, 15)
    expert.reveal(8, 15)
    wait(page, lambda d: shows(d, expert))
    control(page, "button.sl-panel-rref").click()
    wait(page, lambda d: "rank" in control(d, ".sl-matrix-note").text)
    board_box, m = control(page, "svg.sl-board").rect, margin(page)
    assert board_box["width"] == 30 * 26 + m and board_box["height"] == 16 * 26 + m
    undecided = len(covered(expert)) - len(sweeplab.deduce(expert.observation, "enumerate"))
    assert len(page.find_elements("css selector", ".sl-board .sl-prob")) == undecided > 0
    snap(page, shots / "08-expert-rref.png")
    # a narrow window: the board shrinks to fit (it hid its last 9 columns behind a scrollbar in a
    # 1024 px window with the file browser open), cells stay clickable, proofs scroll, never break words
    page.set_window_size(1024, 1400)
    try:
        wait(page, lambda d: control(d, "svg.sl-board").rect["width"] < 30 * 26)
        box = control(page, ".sl-main")  # stacked: the board box lends its items to it
        width = control(page, "svg.sl-board").rect["width"]
        fits = page.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", box)
        assert 30 * 16 <= width <= box.rect["width"] and fits[0] <= fits[1], (width, box.rect, fits)
        ratio = (16 * 26 + m) / (30 * 26 + m)  # the board scales as a whole, numbers and all
        assert control(page, "svg.sl-board").rect["height"] == pytest.approx(width * ratio, abs=1)
        deduced = sweeplab.deduce(expert.observation, "rref", proofs=True)
        target = max(deduced.proofs, key=lambda c: deduced.proofs[c].size)  # the longest lines
        on_cell(page, *target, "hover")
        wait(page, lambda d: d.find_elements("css selector", ".sweeplab-explorer .sl-proof-text"))
        text = control(page, ".sl-proof-text")
        # explain() wraps at 80 columns and the panel again at spaces: read without scrolling sideways
        assert page.execute_script("return getComputedStyle(arguments[0]).whiteSpace", text) == "pre-wrap"
        assert page.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", text)
        assert deduced.proofs[target].explain(expert.observation).splitlines()[0] in text.text
        safe = min(deduced.safe)
        on_cell(page, *safe)
        expert.reveal(*safe)
        wait(page, lambda d: shows(d, expert))
        snap(page, shots / "09-expert-narrow.png")
        # a projector's 1024x768: the board keeps to 60% of the height, so the cell panel comes into view
        page.set_window_size(1024, 768)
        wait(page, lambda d: control(d, "svg.sl-board").rect["height"]
             <= 0.6 * d.execute_script("return window.innerHeight") + 1)
        on_cell(page, *target, "hover")
        # the side panel wrapped below the board: the cell panel, with the proof, comes straight under it
        # and the legend after (it sat below the legend, off a projector's screen)
        wait(page, lambda d: "sl-stacked" in control(d, ".sl-main").get_attribute("class"))
        board_box, info = control(page, "svg.sl-board").rect, control(page, ".sl-info").rect
        legend, matrix = control(page, ".sl-legend").rect, control(page, ".sl-matrix").rect
        # ...and the matrix (open here, and long) after the legend
        assert board_box["y"] + board_box["height"] <= info["y"] < legend["y"] < matrix["y"], (
            board_box, info, legend, matrix)
        assert info["y"] - board_box["y"] < 0.75 * page.execute_script("return window.innerHeight")
        snap(page, shots / "10-expert-projector.png")
        # narrower than the board's smallest cells (a phone, a split screen): the board scrolls in its own
        # box, the page does not (stacked, the board's box lends its items to the row and could not scroll)
        page.set_window_size(800, 900)
        smallest = page.execute_script("return parseFloat(arguments[0].style.minWidth)",
                                       control(page, "svg.sl-board"))
        assert smallest == 30 * 16 + round(0.75 * 16)  # board.js: MIN_CELL and margin(s)
        wait(page, lambda d: control(d, "svg.sl-board").rect["width"] == pytest.approx(smallest, abs=1))
        sizes = page.execute_script(
            "return [arguments[0].scrollWidth, arguments[0].clientWidth, arguments[1].scrollWidth, "
            "arguments[1].clientWidth]", control(page, ".sl-main"), control(page, ".sl-board-scroll"))
        assert sizes[0] <= sizes[1] + 1 and sizes[2] > sizes[3], sizes
        snap(page, shots / "11-expert-phone.png")
        # the narrowest legend (a split screen's notebook): each item wraps its parts inside it (the
        # probability scale and the proof's keys ran past its edge, as one unbreakable row)
        overflow = page.execute_script(
            "const legend = arguments[0]; legend.style.width = '140px';"
            "const right = legend.getBoundingClientRect().right;"
            "return [...legend.children].map(c => c.getBoundingClientRect().right - right)",
            control(page, ".sl-legend"))
        assert max(overflow) <= 1, overflow
    finally:
        page.set_window_size(1500, 1400)


BOOK = Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"


def test_the_books_formulas_render_from_its_own_copy_of_mathjax(tmp_path: Path):
    """The book loads MathJax from its _static folder, not a CDN: opened from disk, with the network off,
    every formula of a notebook page (markdown and outputs) is typeset."""
    page = BOOK / "notebooks" / "02_rref_step_by_step.html"
    if not page.exists():
        pytest.skip(f"no book at {BOOK}: build it with `make docs` (CI does, before this test)")
    found = _chromium()
    if found is None:
        pytest.skip("no Chromium and chromedriver found (Debian: apt-get install chromium chromium-driver)")
    scripts = re.findall(r'<script[^>]*src="([^"]*MathJax[^"]*)"', page.read_text(encoding="utf-8"))
    assert scripts and all(s.startswith("../_static/MathJax.js") for s in scripts), scripts
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in (*FLAGS, "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"):  # no network
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=found[1]))
    try:
        driver.get(page.as_uri())
        untypeset = """return [...document.querySelectorAll('.math.notranslate')]
            .filter(e => !e.querySelector('.MathJax, .MathJax_Display')).length"""
        total = driver.execute_script("return document.querySelectorAll('.math.notranslate').length")
        assert total > 20  # the matrices of the outputs and the formulas of the text
        wait(driver, lambda d: d.execute_script(untypeset) == 0, 120)
    finally:
        driver.quit()
