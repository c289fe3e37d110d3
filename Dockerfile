# Boneyard in a container: slim Python, a non-root user, the database on a volume.
#   docker compose up -d --build        (settings from .env; see README, "Running it for real")
# The install and run commands are the README's first command (tests/test_deploy.py keeps them equal).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/boneyard.sqlite3

RUN useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin boneyard \
    && mkdir /data && chown boneyard:boneyard /data

WORKDIR /app
COPY pyproject.toml constraints.txt README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY renderers ./renderers
RUN python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e .

# The code and its virtualenv stay root-owned (read-only to the bot); only /data is writable.
USER boneyard
VOLUME /data
# SIGTERM (docker stop) closes the bot cleanly: exit 0. Exit 2 = a setting, 3 = the database.
CMD [".venv/bin/python", "-m", "bot"]
