"""A client for an OpenAI-compatible chat-completions endpoint, on httpx.

``POST {base_url}/chat/completions`` with ``model``, ``messages`` and the
request parameters; the reply's first choice's message content is the
answer and its ``usage`` the token counts.  Works with hosted endpoints and
local servers (vLLM, llama.cpp's server, Ollama's ``/v1``).

What goes wrong ends in an :class:`EndpointError`, one line naming the
endpoint: a refused connection, a timeout (``timeout`` seconds to
connect and for each read of the reply), a reply that is not a chat
completion.  A ``429`` waits the ``Retry-After`` the server asks for
(seconds or an HTTP date, at most ``max_wait``) and tries again; a ``5xx``
is retried after a short backoff; both at most ``retries`` times.
"""

from __future__ import annotations

import email.utils
import json
import time
from typing import Any

from eson.eval.cache import Answer

__all__ = ["ChatClient", "EndpointError"]


class EndpointError(RuntimeError):
    """The endpoint failed (one line, naming it)."""


def _retry_after(value: str | None, default: float) -> float:
    if value is None:
        return default
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    return max(0.0, moment.timestamp() - time.time())


class ChatClient:
    """One endpoint and model; thread-safe (one pooled ``httpx.Client``).

    Args:
        base_url: The API root, e.g. ``http://127.0.0.1:8000/v1`` or
            ``https://api.openai.com/v1``.
        model: The model name the endpoint knows.
        api_key: Sent as ``Authorization: Bearer ...`` when given.
        timeout: Seconds to wait to connect and for each read of the reply.
        retries: Retries after a ``429`` or ``5xx`` reply.
        max_wait: Longest wait a ``Retry-After`` may ask for, in seconds.

    Raises:
        ImportError: without httpx (``pip install 'typed-eson[eval]'``).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        retries: int = 3,
        max_wait: float = 60.0,
    ) -> None:
        try:
            import httpx
        except ImportError:
            raise ImportError("eson eval needs httpx: pip install 'typed-eson[eval]'") from None
        self.url: str = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.retries = retries
        self.max_wait = max_wait
        self.timeout = timeout
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._httpx = httpx
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout))

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def complete(self, messages: list[dict[str, str]], params: dict[str, Any]) -> Answer:
        """Ask once (with the retries above) and return the answer.

        Raises:
            EndpointError: when no answer comes.
        """
        body = {"model": self.model, "messages": messages, **params}
        httpx = self._httpx
        for attempt in range(self.retries + 1):
            try:
                response = self._client.post(self.url, json=body)
            except httpx.TimeoutException:
                raise EndpointError(f"{self.url}: no reply within {self.timeout:g} s") from None
            except httpx.ConnectError as exc:
                raise EndpointError(f"{self.url}: cannot connect ({exc})") from None
            except httpx.HTTPError as exc:
                raise EndpointError(f"{self.url}: {type(exc).__name__}: {exc}") from None
            status = response.status_code
            if status == 429 or status >= 500:
                if attempt == self.retries:
                    raise EndpointError(
                        f"{self.url}: HTTP {status} after {attempt + 1} attempts: "
                        f"{_snippet(response.text)}"
                    )
                wait = min(0.25 * 2**attempt, self.max_wait)
                if status == 429:
                    wait = _retry_after(response.headers.get("retry-after"), wait)
                    if wait > self.max_wait:
                        raise EndpointError(
                            f"{self.url}: rate limited, asked to wait {wait:.0f} s "
                            f"(more than {self.max_wait:g} s)"
                        )
                time.sleep(wait)
                continue
            if status != 200:
                raise EndpointError(f"{self.url}: HTTP {status}: {_snippet(response.text)}")
            return _answer(self.url, response.text)
        raise AssertionError("unreachable")  # pragma: no cover


def _snippet(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _answer(url: str, body: str) -> Answer:
    try:
        data = json.loads(body)
        content = data["choices"][0]["message"]["content"]
        usage = data.get("usage") or {}
        tokens_in = int(usage.get("prompt_tokens") or 0)
        tokens_out = int(usage.get("completion_tokens") or 0)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise EndpointError(
            f"{url}: the reply is not a chat completion: {_snippet(body)}"
        ) from None
    if content is None:
        content = ""  # a refusal or tool call without text
    if isinstance(content, list) and all(isinstance(part, dict) for part in content):
        content = "".join(str(part.get("text", "")) for part in content)  # content parts
    if not isinstance(content, str):
        raise EndpointError(f"{url}: the reply's content is not text: {_snippet(body)}")
    return Answer(content, tokens_in, tokens_out)
