# tactica's web app in a container: `tactica serve` on 0.0.0.0:8000, behind its own guards
# (the Host allow-list, the request and connection limits, the calculation timeout).
# docs/deploy.md says how to run it behind a reverse proxy with TLS.
#
#   docker build -t tactica .
#   docker run -p 8000:8000 -e TACTICA_ALLOW_HOST=tactica.example.org tactica --workers 2
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /build
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip install ".[web]" && rm -rf /build

# an unprivileged user; its cache holds the converted dataset, built here once so that a
# container starts in seconds (TACTICA_CACHE_DIR: tactica.cache)
RUN useradd --create-home --uid 10001 tactica
USER tactica
WORKDIR /home/tactica
ENV TACTICA_CACHE_DIR=/home/tactica/.cache/tactica
RUN tactica units > /dev/null

EXPOSE 8000
# /healthz: 200 while the server can calculate, 503 once no calculation worker is left
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

# more options after the image's name: --workers N, --timeout S, --allow-host NAME, --meta DIR
ENTRYPOINT ["tactica", "serve", "--host", "0.0.0.0", "--port", "8000"]
CMD []
