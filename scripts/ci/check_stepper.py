"""Checks the backward-pass stepper page in a real headless browser (run by .ci/run).

Writes the page for the lecture's neuron, o = tanh(x1*w1 + x2*w2 + b), with
`02_trace_graph --html`, opens it in Debian's chromium through chromium-driver
(selenium), steps to the end, checks that every gradient the page shows is the one the
engine's `o.backward()` printed (the exact repr in the `data-grad` attribute, and the
4-decimal text), steps back to the start, and checks that the page logged no console
errors. Screenshots for people to look at are written to target/stepper/ (not committed).

Usage: python3 scripts/ci/check_stepper.py   (after `cargo build --release --examples`)
Needs: chromium, chromium-driver (apt) and selenium (pip).
"""
import os
import re
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "target", "release", "examples", "02_trace_graph")
SHOTS = os.path.join(ROOT, "target", "stepper")
LINE = re.compile(r"^(.+) Value\(data=(\S+), grad=(\S+)\)$")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def engine_grads(page):
    """Runs the example; returns {label: grad repr} from its `label Value(...)` lines."""
    out = subprocess.run([EXAMPLE, "--out", os.path.dirname(page), "--html", page],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    return {m.group(1): m.group(3) for m in map(LINE.match, out.splitlines()) if m}


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def shown_grads(driver):
    """{name: (data-grad, text)} for every labelled value on the page."""
    grads = {}
    for record in driver.find_elements(By.CSS_SELECTOR, "g.record"):
        grad = record.find_element(By.CSS_SELECTOR, "text.grad")
        grads[record.get_attribute("data-name")] = (grad.get_attribute("data-grad"), grad.text)
    return grads


def main():
    os.makedirs(SHOTS, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "lecture_neuron.html")
        expected = engine_grads(page)
        check(len(expected) == 10, f"the example printed the 10 labelled values ({len(expected)})")
        driver = browser()
        try:
            driver.get("file://" + page)
            step = lambda: int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-step"))
            nodes = len(driver.find_elements(By.CSS_SELECTOR, "g.record"))
            check(nodes == 10, f"the page draws the neuron's 10 values ({nodes})")
            check(step() == 0 and all(g == ("0.0", "grad 0.0000") for g in shown_grads(driver).values()),
                  "the page opens before the pass, every grad 0")
            nxt = driver.find_element(By.ID, "next")
            # Step 1 is the seed o.grad = 1; step 2 runs o's rule: tanh, the lecture's line.
            nxt.click()
            nxt.click()
            panel = driver.find_element(By.ID, "panel").text
            check("self.grad += (1 - t**2) * out.grad" in panel, "step 2 shows tanh's Python line")
            check("local_grad: |_x, out, _| 1.0 - out * out," in panel, "step 2 shows tanh's Rust line")
            active = driver.find_elements(By.CSS_SELECTOR, "g.record.active")
            check([a.get_attribute("data-name") for a in active] == ["o"], "step 2 highlights o")
            check(shown_grads(driver)["n"][1] == "grad 0.5000", "step 2 changes n.grad to 0.5000")
            driver.save_screenshot(os.path.join(SHOTS, "lecture_neuron_step2.png"))
            while nxt.is_enabled():
                nxt.click()
            check(step() == nodes + 1, f"the pass has one step per value plus the seed ({step()})")
            grads = shown_grads(driver)
            for name, want in expected.items():
                got = grads.get(name)
                check(got == (want, f"grad {float(want):.4f}"),
                      f"{name}.grad shown {got} equals the engine's {want}")
            driver.save_screenshot(os.path.join(SHOTS, "lecture_neuron_end.png"))
            prev = driver.find_element(By.ID, "prev")
            while prev.is_enabled():
                prev.click()
            check(step() == 0 and all(g == ("0.0", "grad 0.0000") for g in shown_grads(driver).values()),
                  "stepping back to the start restores every grad to 0")
            errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
            check(not errors, f"no console errors ({errors})")
        finally:
            driver.quit()
    print(f"screenshots: {SHOTS}/lecture_neuron_step2.png, lecture_neuron_end.png")
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
