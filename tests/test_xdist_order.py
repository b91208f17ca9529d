"""The scheduler of tests/conftest.py: pytest-xdist's loadscope, longest work units first, the
tests of a SPREAD_MODULES module one unit each (and tests/costs.py, which measures the units)."""

import json
from types import SimpleNamespace

from tests import conftest
from tests.costs import unit_costs

STUDY = "tests/studies/test_study_commands.py"


class FakeNode:
    """What the scheduler needs of a pytest-xdist worker."""

    shutting_down = False

    def __init__(self, name, sent):
        self.gateway = SimpleNamespace(id=name)
        self.sent = sent  # (worker, test indexes) in the order sent, shared by the workers

    def send_runtest_some(self, indexes):
        self.sent.append((self.gateway.id, list(indexes)))

    def shutdown(self):
        self.shutting_down = True


class Loadscope:
    """The run's configuration as under ``pytest -n 2`` (this test may run with ``-n 0``)."""

    def __init__(self, config):
        self.config = config
        self.option = config.option

    def getvalue(self, name):
        return {"dist": "loadscope", "numprocesses": 2, "tx": ["2*popen"]}.get(
            name, self.config.getvalue(name)
        )


def _schedule(pytestconfig, monkeypatch, tmp_path, costs, collection):
    path = tmp_path / "costs.json"
    path.write_text(json.dumps(costs))
    monkeypatch.setattr(conftest, "COSTS", path)
    sched = conftest.pytest_xdist_make_scheduler(Loadscope(pytestconfig), None)
    sent = []
    nodes = [FakeNode("gw0", sent), FakeNode("gw1", sent)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    return [(worker, [collection[i] for i in batch]) for worker, batch in sent]


def test_the_longest_units_go_out_first(pytestconfig, monkeypatch, tmp_path):
    collection = [
        *(f"tests/a.py::test_{i}" for i in range(30)),  # many quick tests
        "tests/deploy/test_wheel.py::test_one",
        "tests/deploy/test_wheel.py::test_two",  # two tests sharing a module fixture
        "tests/b.py::test_x",
    ]
    sent = _schedule(
        pytestconfig, monkeypatch, tmp_path, {"tests/deploy/test_wheel.py": 90.0}, collection
    )
    # pytest-xdist's own loadscope would send tests/a.py first (the most tests)
    assert sent[0] == (
        "gw0",
        ["tests/deploy/test_wheel.py::test_one", "tests/deploy/test_wheel.py::test_two"],
    )
    assert sent[1] == ("gw1", [f"tests/a.py::test_{i}" for i in range(30)])
    assert sorted(t for _, batch in sent for t in batch) == sorted(collection)


def test_the_study_commands_are_spread_over_the_workers(pytestconfig, monkeypatch, tmp_path):
    run = f"{STUDY}::test_documented_study_commands_run_at_a_tiny_size"
    collection = [
        f"{run}[python -m offcenter.evaluate study --out a.csv.gz]",
        f"{run}[python -m offcenter.evaluate study data/x --models tree]",
        f"{STUDY}::test_report_reproduces_the_committed_tables",
        "tests/a.py::test_one",
    ]
    costs = {collection[0]: 150.0, collection[1]: 40.0, collection[2]: 50.0}
    sent = _schedule(pytestconfig, monkeypatch, tmp_path, costs, collection)
    # one unit per test: the two longest start at once, one on each worker
    assert sent[:2] == [("gw0", [collection[0]]), ("gw1", [collection[2]])]
    assert sorted(t for _, batch in sent for t in batch) == sorted(collection)


def test_the_modules_sharing_the_deployment_go_to_one_worker(pytestconfig, monkeypatch, tmp_path):
    collection = [
        "tests/deploy/test_failover_browser.py::test_kill",
        "tests/deploy/test_full_tmp.py::test_upload",
        "tests/deploy/test_haproxy.py::test_states",
        "tests/deploy/test_haproxy.py::test_restart",
        *(f"tests/a.py::test_{i}" for i in range(30)),
    ]
    costs = {"tests/deploy/test_haproxy.py": 90.0}
    sent = _schedule(pytestconfig, monkeypatch, tmp_path, costs, collection)
    # one unit (tests/deploy/conftest.py's session deployment made once), in collection order
    assert sent[0] == ("gw0", collection[:4])
    assert sorted(t for _, batch in sent for t in batch) == sorted(collection)


def test_costs_add_up_the_phases_of_a_unit():
    log = [
        "============================= slowest durations =============================",
        "40.00s setup    tests/deploy/test_haproxy.py::test_two",
        "30.00s call     tests/deploy/test_haproxy.py::test_warm",
        "150.00s call     tests/studies/test_study_commands.py::test_run[python -m x study --out a b]",
        "2.00s call     tests/tree/test_api.py::test_fit",
        "9.00s call     tests/app/test_page.py::TestPage::test_run",
        "5.00s call     tests/deploy/test_failover_browser.py::test_kill",
    ]
    assert unit_costs(log) == {
        "tests/studies/test_study_commands.py::test_run[python -m x study --out a b]": 150.0,
        "tests/deploy/test_haproxy.py": 75.0,
        "tests/app/test_page.py::TestPage": 9.0,
    }
