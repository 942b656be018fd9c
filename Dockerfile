# The service image used by compose.yaml: the distribution installed into a slim Python.
FROM python:3.11-slim
WORKDIR /srv
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY projections ./projections
COPY api ./api
COPY replays ./replays
COPY rulebook ./rulebook
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["galileo", "serve", "--host", "0.0.0.0", "--port", "8000"]
