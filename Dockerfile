# Genius Night: one app process per container (scale out with more containers on
# PostgreSQL + Redis; see docs/deploy.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY requirements/server.txt ./requirements.txt
COPY src ./src
COPY alembic ./alembic
COPY static ./static
COPY templates ./templates

# The dependencies as pinned in requirements/server.txt (hashes checked: the image gets the
# tested set, docs/deploy.md "Reproducible installs"), then the package (static/, templates/
# and alembic/ inside it) into site-packages; the build context is removed afterwards.
RUN pip install --require-hashes -r requirements.txt \
    && pip install --no-deps . \
    && rm -rf /app/src /app/alembic /app/static /app/templates /app/requirements.txt \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin geniusnight \
    && mkdir -p /app/var \
    && chown geniusnight /app/var
# X-Forwarded-For is believed only from GENIUSNIGHT_TRUSTED_PROXIES (default 127.0.0.1):
# set it to the proxy's address (docker-compose.yml does), never to "*"
ENV GENIUSNIGHT_ENV=production \
    GENIUSNIGHT_HOST=0.0.0.0 \
    GENIUSNIGHT_PORT=8000

USER geniusnight
EXPOSE 8000
# liveness: the process answers (docker-compose.yml checks readiness, /readyz, instead)
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
CMD ["geniusnight", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-migrate"]
