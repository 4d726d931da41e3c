"""``eson eval``: does a model still read the data correctly, and write it back validly?

Runs the measurement the format's authors published, on your model and
your schema, against any OpenAI-compatible chat-completions endpoint
(hosted, or a local vLLM, llama.cpp or Ollama server)::

    import eson

    report = eson.eval.run("http://127.0.0.1:8000/v1", "my-model", cache="eval.jsonl")
    print(report.text())

- **Comprehension**: one seeded document (the handoff shape,
  :class:`eson.eval.datasets.Handoff`, or your own type) shown in compact
  JSON, pretty JSON, columnar JSON, TOON and ESON, with questions of six
  kinds (:mod:`eson.eval.questions`), scored by exact match.
- **Generation**: the model writes documents of the type in ESON, TOON and
  JSON from :func:`eson.prompt`; each is scored valid, repaired, valid
  after one retry with the error's ``feedback``, invalid, or refused.

The report (:class:`eson.eval.report.Report`) gives accuracy with a 95%
Wilson interval, tokens and cost.  Answers go to a JSON-lines cache as
they arrive, so an interrupted run continues where it stopped.  Needs the
``typed-eson[eval]`` extra (httpx), imported only when a run starts;
``import eson`` never loads this package.
"""

from __future__ import annotations

from eson.eval.client import EndpointError
from eson.eval.questions import KINDS, Question, is_correct, make_questions, normalize
from eson.eval.report import ComprehensionResult, GenerationResult, Report, wilson
from eson.eval.runner import (
    COMPREHENSION_FORMATS,
    GENERATION_FORMATS,
    OUTCOMES,
    EvalError,
    Progress,
    render,
    run,
)

__all__ = [
    "COMPREHENSION_FORMATS",
    "GENERATION_FORMATS",
    "KINDS",
    "OUTCOMES",
    "ComprehensionResult",
    "EndpointError",
    "EvalError",
    "GenerationResult",
    "Progress",
    "Question",
    "Report",
    "is_correct",
    "make_questions",
    "normalize",
    "render",
    "run",
    "wilson",
]
