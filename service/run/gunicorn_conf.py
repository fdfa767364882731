"""gunicorn's configuration of the API.

    gunicorn -c python:service.run.gunicorn_conf 'service.app:create_app()'


The values are service.run.gunicorn_worker.SETTINGS (gevent workers, slow clients bounded and timed out,
gunicorn's own errors as problem details); options given on the command line override them.
"""

from service.run.gunicorn_worker import SETTINGS

worker_class = SETTINGS["worker_class"]
workers = SETTINGS["workers"]
worker_connections = SETTINGS["worker_connections"]
keepalive = SETTINGS["keepalive"]
timeout = SETTINGS["timeout"]
graceful_timeout = SETTINGS["graceful_timeout"]
limit_request_line = SETTINGS["limit_request_line"]
limit_request_fields = SETTINGS["limit_request_fields"]
limit_request_field_size = SETTINGS["limit_request_field_size"]
