"""Turn a `--model` string into a LangChain chat model.

- `provider:model` (groq, openai, ollama, anthropic, ...) goes to
  `init_chat_model`; Groq's Qwen models get reasoning turned off, as the seed
  runs them.
- `path/to/file.py:attr` or `package.module:attr` imports a chat model, or a
  callable returning one (a `/`, a `.py` or a dot before the colon marks an
  import reference).
- `scripted:FILE` loads a scripted model (see `graph.testing`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

from langchain.chat_models import init_chat_model
from langchain_core.language_models.chat_models import BaseChatModel

from graph.core.scripted import load_script
from graph.errors import ModelConfigError


class Provider(NamedTuple):
    """What a LangChain provider needs: its key variable, and the package that implements it."""

    key_variable: str
    module: str
    package: str
    extra: str = ""  # this project's extra that installs the package


PROVIDERS = {
    "groq": Provider("GROQ_API_KEY", "langchain_groq", "langchain-groq"),
    "openai": Provider("OPENAI_API_KEY", "langchain_openai", "langchain-openai", "openai"),
    "ollama": Provider("", "langchain_ollama", "langchain-ollama", "ollama"),
    "anthropic": Provider("ANTHROPIC_API_KEY", "langchain_anthropic", "langchain-anthropic"),
    "google_genai": Provider("GOOGLE_API_KEY", "langchain_google_genai", "langchain-google-genai"),
    "mistralai": Provider("MISTRAL_API_KEY", "langchain_mistralai", "langchain-mistralai"),
    "together": Provider("TOGETHER_API_KEY", "langchain_together", "langchain-together"),
    "fireworks": Provider("FIREWORKS_API_KEY", "langchain_fireworks", "langchain-fireworks"),
}
MISSING_PACKAGE = (
    "The model provider '{provider}' needs the package {package}, which is not installed: "
    "{install}."
)
INSTALL_EXTRA = "pip install 'react-evidence-agent[{extra}]' (or pip install {package})"
INSTALL_PACKAGE = "pip install {package}"
MISSING_KEY = (
    "No API key for the model provider '{provider}': set {variable} (in your shell, or in a "
    ".env file in the working directory), or choose another model with --model: "
    "'provider:model' for any "
    "LangChain chat model (groq, openai with OPENAI_BASE_URL for compatible servers, "
    "ollama for a local one, ...), 'path/to/file.py:factory' or 'package.module:factory' "
    "for your own chat model, or 'scripted:FILE' for scripted replies."
)
BAD_SPEC = (
    "Cannot read the model '{spec}': expected 'provider:model', 'path/to/file.py:attr', "
    "'package.module:attr' or 'scripted:FILE'."
)


def is_import_reference(spec: str) -> bool:
    """Whether `spec` names code to import rather than a provider's model."""
    target = spec.rsplit(":", 1)[0]
    return "/" in target or "\\" in target or target.endswith(".py") or "." in target


def is_file_target(target: str) -> bool:
    """Whether an import reference's target (before the colon) is a file, not a module."""
    return target.endswith(".py") or "/" in target or "\\" in target


def model_files_anchored(spec: str) -> str:
    """`spec` with the file it names (`scripted:FILE`, `path/to/file.py:attr`) made
    absolute, so that it names the same file from any working directory."""
    text = spec.strip()
    if text.startswith("scripted:") and text.removeprefix("scripted:").strip():
        return "scripted:" + os.path.abspath(os.path.expanduser(text.removeprefix("scripted:")))
    target, colon, attribute = text.rpartition(":")
    if colon and target and is_file_target(target):
        return f"{os.path.abspath(os.path.expanduser(target))}:{attribute}"
    return spec


def _import_target(target: str) -> Any:
    if is_file_target(target):
        try:
            path = Path(target).expanduser().resolve()
            found = path.is_file()
        except (RuntimeError, OSError) as error:  # `~nouser`, a name too long, a loop
            raise ModelConfigError(f"Cannot use the model file {target}: {error}") from None
        if not found:
            raise ModelConfigError(f"The model file {target} does not exist.")
        name = f"_react_agent_model_{abs(hash(str(path)))}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ModelConfigError(f"Cannot import {target} as a Python file.")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(target)
    except ImportError as error:
        raise ModelConfigError(f"Cannot import the module {target}: {error}") from None


def _from_reference(spec: str) -> BaseChatModel:
    target, _, attribute = spec.rpartition(":")
    if not target or not attribute:
        raise ModelConfigError(BAD_SPEC.format(spec=spec))
    module = _import_target(target)
    try:
        value = getattr(module, attribute)
    except AttributeError:
        raise ModelConfigError(f"{target} has no attribute '{attribute}'.") from None
    model = value() if callable(value) and not isinstance(value, BaseChatModel) else value
    if not isinstance(model, BaseChatModel):
        raise ModelConfigError(f"{spec} gave a {type(model).__name__}, not a LangChain chat model.")
    return model


def _require_package(name: str, provider: Provider) -> None:
    """Refuse a provider whose LangChain package is missing, saying how to install it."""
    if importlib.util.find_spec(provider.module) is not None:
        return
    install = (
        INSTALL_EXTRA.format(extra=provider.extra, package=provider.package)
        if provider.extra
        else INSTALL_PACKAGE.format(package=provider.package)
    )
    raise ModelConfigError(
        MISSING_PACKAGE.format(provider=name, package=provider.package, install=install)
    )


def _from_provider(spec: str, temperature: float, max_tokens: int) -> BaseChatModel:
    provider, _, name = spec.partition(":")
    if not provider or not name:
        raise ModelConfigError(BAD_SPEC.format(spec=spec))
    known = PROVIDERS.get(provider)
    if known is not None:
        _require_package(provider, known)
    variable = known.key_variable if known else ""
    if variable and not os.environ.get(variable):
        raise ModelConfigError(MISSING_KEY.format(provider=provider, variable=variable))
    options: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens}
    if provider == "groq" and name.startswith("qwen/"):
        options["reasoning_effort"] = "none"
    if provider == "openai" and os.environ.get("OPENAI_BASE_URL"):
        options["base_url"] = os.environ["OPENAI_BASE_URL"]
    try:
        return init_chat_model(name, model_provider=provider, **options)
    except (ImportError, ValueError) as error:
        raise ModelConfigError(f"Cannot load the model '{spec}': {error}") from None


def load_chat_model(spec: str, temperature: float = 0.0, max_tokens: int = 512) -> BaseChatModel:
    """The chat model that `spec` names (see the module docstring)."""
    spec = spec.strip()
    if not spec:
        raise ModelConfigError(BAD_SPEC.format(spec=spec))
    if spec.startswith("scripted:"):
        path = spec.removeprefix("scripted:")
        try:
            return load_script(path)
        except (OSError, ValueError) as error:
            raise ModelConfigError(f"Cannot load the scripted model {path}: {error}") from None
    if is_import_reference(spec):
        return _from_reference(spec)
    return _from_provider(spec, temperature, max_tokens)
