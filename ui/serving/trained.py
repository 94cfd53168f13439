"""Models a browser session trained, uploaded or loaded from a Hugging Face folder: they
join that session's model picker.

Each model gets a key "trained:<random id>". The model itself lives in the session's
state (so it goes away with the session, and another session cannot list it); a
process-wide weak map lets the cached loaders find it by key, so every page (attention,
PE, FFN, …) inspects it exactly like a catalogue model. The id is random, so a link with
one session's key shows a notice in another session, never that session's model.

A model loaded from a Hugging Face folder (kind "loaded") is the server's one copy of that
folder in that dtype on that device (ui/serving/loaded.py): the holder keeps the session's
handle on it, so the copy is held while the model is in the picker and let go with the session.
"""
from __future__ import annotations

import secrets
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from models import limits
from models.config import TransformerConfig
from models.errors import Refused
from models.training.tasks import TASKS, get_task
from models.tokenizer import Tokenizer
from models.transformer import Transformer
from models.weights import zoo

_STATE = "_trained_models"
_SELECT = "_select_model_next"
_registry: "weakref.WeakValueDictionary[str, Holder]" = weakref.WeakValueDictionary()
_guard = threading.Lock()


@dataclass(eq=False)
class Holder:
    """A trained model, its tokenizer and card; per-device copies made on demand."""

    key: str
    label: str
    model: Transformer
    tokenizer: Tokenizer
    card: dict[str, Any]
    copies: dict[str, Transformer] = field(default_factory=dict)
    kind: str = "trained"                        # "loaded": from a Hugging Face folder (card["source"])
    handles: dict[str, Any] = field(default_factory=dict)   # "loaded": device -> this session's hold on the
    #                                              server's shared copy (ui/serving/loaded.py), dropped with the session

    @property
    def config(self) -> TransformerConfig:
        return self.model.cfg

    @property
    def entry(self) -> zoo.Entry:
        """This model as a catalogue entry. Its card keeps the task only when it was
        trained at that task's default length (the task's example and accuracy apply)."""
        card = dict(self.card)
        task = card.get("task")
        if task not in TASKS or card.get("train_len") != get_task(task).train_len:
            card.pop("task", None)
        return zoo.Entry(self.key, self.label, self.kind, self.description(), True, config=self.config, card=card)

    def description(self) -> str:
        """The model's one-line description in the UI language now: a card may keep its
        string key and values ("description_key", "description_values") rather than a
        sentence in the language of the moment it was added."""
        key = self.card.get("description_key")
        if key:
            from ..i18n import count_words, t

            values = dict(self.card.get("description_values", {}))
            if "n_params" in self.card:
                values["params"] = count_words(int(self.card["n_params"]))
            return t(key, **values)
        return self.card.get("description", "")

    def on(self, device: str) -> Transformer:
        from models.device import pick_device

        dev = str(pick_device(device))
        if str(self.model.device) == dev:
            return self.model
        if dev not in self.copies:
            if self.handles:                     # a loaded model: the server's one copy on that device
                from .loaded import REGISTRY

                self.handles[dev] = REGISTRY.on_device(next(iter(self.handles.values())), dev)
                self.copies[dev] = self.handles[dev].model
            else:
                import copy

                self.copies[dev] = copy.deepcopy(self.model).to(dev).eval()
        return self.copies[dev]


def add(model: Transformer, tokenizer: Tokenizer, label: str, card: dict[str, Any], kind: str = "trained",
        handle: Any = None) -> str:
    """Put a model in this session's picker; returns its key. `kind` "loaded": a model
    loaded from a Hugging Face folder (ui/widgets/model_loader.py), its folder in
    card["source"], and `handle` this session's hold on the server's shared copy
    (ui/serving/loaded.py), kept as long as the model stays in the picker."""
    key = f"trained:{secrets.token_hex(6)}"
    holders: list[Holder] = st.session_state.setdefault(_STATE, [])
    n = len(holders) + 1
    handles = {str(handle.key.device): handle} if handle is not None else {}
    holder = Holder(key, f"{label} (#{n})", model.eval(), tokenizer, card, kind=kind, handles=handles)
    holders.append(holder)
    with _guard:
        _registry[key] = holder
    return key


def check_room() -> None:
    """Refused("session_models") when this session already holds as many trained or
    uploaded models as the server allows (models/limits.py). Checked before a training
    run starts or an upload is read, so a finished run is never refused."""
    limit = int(limits.value("session_models"))
    if len(session_models()) >= limit:
        raise Refused("session_models", f"This browser session already holds {limit} trained or uploaded models, "
                      "the server's limit.", n=limit)


def remove(key: str) -> None:
    """Take a model out of this session's picker (the session frees it)."""
    holders: list[Holder] = st.session_state.get(_STATE, [])
    st.session_state[_STATE] = [h for h in holders if h.key != key]
    with _guard:
        _registry.pop(key, None)
    if st.session_state.get("model") == key:
        st.session_state.pop("model", None)


def select_next(key: str) -> None:
    """Have the sidebar's model picker choose `key` in the next run (a widget's value can
    only be set before it is drawn; the sidebar is drawn before the pages)."""
    st.session_state[_SELECT] = key


def take_selection() -> str | None:
    """The key asked for by `select_next`, once (the sidebar calls this)."""
    return st.session_state.pop(_SELECT, None)


def session_models() -> list[Holder]:
    """This session's trained and uploaded models, oldest first."""
    return list(st.session_state.get(_STATE, []))


def find(key: str) -> Holder | None:
    with _guard:
        return _registry.get(key)


def load(key: str, device: str) -> tuple[Transformer, Tokenizer]:
    holder = find(key)
    if holder is None:
        raise ValueError("This trained model is not in this browser session any more (a model trained in another "
                         "tab or before a server restart). Train it again or upload its checkpoint.")
    return holder.on(device), holder.tokenizer


def entries(catalogue: list[zoo.Entry] | None = None) -> list[zoo.Entry]:
    """What the model picker offers: the available catalogue entries, then this
    session's own models."""
    catalogue = zoo.catalogue() if catalogue is None else catalogue
    return [e for e in catalogue if e.available] + [h.entry for h in session_models()]


def entry(key: str) -> zoo.Entry | None:
    """The entry of a catalogue key or of one of this session's models (None if unknown)."""
    if key.startswith("trained:"):
        holder = find(key)
        return holder.entry if holder is not None else None
    try:
        return zoo.get(key)
    except ValueError:
        return None


def task_of(key: str) -> str | None:
    """The toy task a model reads (a shipped checkpoint, or a model this session trained
    on a task at its default length), else None."""
    e = entry(key)
    return e.task if e is not None else None
