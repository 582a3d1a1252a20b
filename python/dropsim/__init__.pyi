# Type stub of dropsim (the compiled dropsim._dropsim): what editors complete.
import os
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

PathLike = Union[str, os.PathLike[str]]
ScenarioLike = Union["Scenario", Mapping[str, Any], PathLike]

class InputError(ValueError):
    """Bad input: the message names the file (or "scenario dict"), the JSON path and the rule."""

    file: str
    json_path: str

class Scenario:
    """A scenario validated by the command line's own validator."""

    def __init__(self, document: Mapping[str, Any]) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def kind(self) -> str:
        """"drop" or "multibody"."""
    @property
    def document(self) -> dict[str, Any]: ...
    @property
    def resolved(self) -> dict[str, Any]: ...

class Trace:
    """A finished run: trace[name] is a read-only numpy view of the run's own buffer."""

    def __getitem__(self, name: str) -> npt.NDArray[np.float64]: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...
    def keys(self) -> list[str]: ...
    @property
    def units(self) -> dict[str, str]: ...
    @property
    def summary(self) -> dict[str, Any]: ...
    @property
    def name(self) -> str: ...
    @property
    def q_names(self) -> list[str]: ...
    @property
    def u_names(self) -> list[str]: ...
    def write(self, path: PathLike) -> None:
        """The HDF5 file `dropsim run` writes."""
    def write_sto(self, path: PathLike) -> None:
        """The OpenSim Storage file `dropsim run --sto` writes."""

def load_scenario(path: PathLike) -> Scenario: ...
def run(
    scenario: ScenarioLike,
    *,
    integrator: Optional[str] = None,
    step: Optional[float] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    attribution: bool = True,
    force: bool = False,
) -> Trace: ...
def run_many(
    scenarios: Iterable[ScenarioLike],
    *,
    threads: int = 0,
    integrator: Optional[str] = None,
    step: Optional[float] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    attribution: bool = True,
    force: bool = False,
) -> list[Trace]: ...
def sweep(
    base: ScenarioLike, vary: Mapping[str, Union[Sequence[float], npt.ArrayLike]], *, threads: int = 0
) -> dict[str, npt.NDArray[Any]]: ...
def integrators() -> list[dict[str, Any]]: ...
def modes(scenario: ScenarioLike) -> dict[str, Any]:
    """The analysis `dropsim modes` reports: equilibrium, active contacts, modes (numpy shapes)."""
def read_trace(path: PathLike) -> dict[str, dict[str, Any]]: ...
def compare(
    a: PathLike,
    b: PathLike,
    *,
    x: str = "tau",
    y: str = "force_normalized",
    label: str = "",
    atol: float = 1e-6,
    rtol: float = 0.0,
) -> dict[str, Any]: ...
