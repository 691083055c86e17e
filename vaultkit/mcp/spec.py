"""The MCP tools as data: each tool's parameters (JSON Schema) and the check of a call's
arguments against them, with errors in plain words. Standard library only."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

Json = dict[str, object]
Kind = str  # "string", "integer", "boolean" or "strings" (an array of strings)
SCHEMA_TYPES = {"string": "string", "integer": "integer", "strings": "array", "boolean": "boolean"}
WORDS = {
    "string": "text",
    "integer": "a whole number",
    "strings": "a list of text",
    "boolean": "true or false",
}


class ArgumentError(ValueError):
    """A call's arguments do not fit the tool's parameters (said to the model as a tool error)."""


@dataclass(frozen=True, slots=True)
class Param:
    """One named parameter: its kind, what it means, its default (none: required), its minimum."""

    name: str
    kind: Kind
    description: str
    default: object = None
    minimum: int | None = None

    def schema(self) -> Json:
        out: Json = {"type": SCHEMA_TYPES[self.kind], "description": self.description}
        if self.kind == "strings":
            out["items"] = {"type": "string"}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.default is not None:
            out["default"] = self.default
        return out

    def check(self, value: object) -> object:
        """``value`` when it fits; an :class:`ArgumentError` saying what is wrong otherwise."""
        if self.kind == "integer":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArgumentError(f"{self.name}: must be {WORDS['integer']} (got {value!r})")
            if self.minimum is not None and value < self.minimum:
                raise ArgumentError(f"{self.name}: must be {self.minimum} or more (got {value})")
            return value
        if self.kind == "boolean":
            if not isinstance(value, bool):
                raise ArgumentError(f"{self.name}: must be {WORDS['boolean']} (got {value!r})")
            return value
        if self.kind == "strings":
            if isinstance(value, str):
                return [value]  # one kind given as text: what the model meant
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ArgumentError(f"{self.name}: must be {WORDS['strings']} (got {value!r})")
            return list(value)
        if not isinstance(value, str):
            raise ArgumentError(f"{self.name}: must be {WORDS['string']} (got {value!r})")
        return value


@dataclass(frozen=True, slots=True)
class Tool:
    """A tool: its name, description, parameters, whether it writes, and what runs it."""

    name: str
    description: str
    params: tuple[Param, ...]
    run: Callable[..., Json]
    writes: bool = False
    annotations: Json = field(default_factory=dict)

    def listing(self, structured: bool) -> Json:
        """The tool as ``tools/list`` gives it (``outputSchema`` from protocol 2025-06-18)."""
        required = [p.name for p in self.params if p.default is None]
        schema: Json = {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "required": required,
            "additionalProperties": False,
        }
        hints = {
            "readOnlyHint": not self.writes,
            "destructiveHint": False,
            "idempotentHint": not self.writes,
            "openWorldHint": False,
        }
        out: Json = {
            "name": self.name,
            "description": self.description,
            "inputSchema": schema,
            "annotations": hints,
        }
        if structured:
            out["outputSchema"] = {"type": "object", "additionalProperties": True}
        return out

    def arguments(self, given: Mapping[str, object]) -> Json:
        """The call's arguments checked and completed with defaults; ArgumentError when not."""
        known = {p.name for p in self.params}
        extra = sorted(set(given) - known)
        problems = [f"{name}: not a parameter of {self.name}" for name in extra]
        out: Json = {}
        for param in self.params:
            if param.name not in given or given[param.name] is None:
                if param.default is None:
                    problems.append(f"{param.name}: required, and missing")
                else:
                    out[param.name] = list(d) if isinstance(d := param.default, list) else d
                continue
            try:
                out[param.name] = param.check(given[param.name])
            except ArgumentError as exc:
                problems.append(str(exc))
        if problems:
            names = ", ".join(p.name for p in self.params) or "none"
            raise ArgumentError(f"{self.name}: {'; '.join(problems)} (parameters: {names})")
        return out
