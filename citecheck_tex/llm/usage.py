"""What LLM calls cost: :class:`LlmUsage` (requests, cache hits, failures, tokens, time)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LlmUsage:
    """What the LLM cost: requests, cache hits, failures, tokens and wall time."""

    model: str = ""
    requests: int = 0  # HTTP requests sent (a json_schema retry counts twice)
    calls: int = 0  # judgements / parses asked for
    cache_hits: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0

    def __add__(self, other: LlmUsage) -> LlmUsage:
        """The sum of two usages (the model of the first that has one)."""
        return LlmUsage(
            self.model or other.model,
            self.requests + other.requests,
            self.calls + other.calls,
            self.cache_hits + other.cache_hits,
            self.failures + other.failures,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.elapsed_s + other.elapsed_s,
        )

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def describe(self) -> str:
        """One line for a report, e.g. ``LLM qwen2.5: 12 calls (3 cached, 0 failed), ...``."""
        return (f"LLM {self.model or '?'}: {self.calls} calls ({self.cache_hits} cached, "
                f"{self.failures} failed, {self.requests} requests), "
                f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens, "
                f"{self.elapsed_s:.1f} s")
