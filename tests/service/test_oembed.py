"""oEmbed: a viewer link on this server becomes an iframe of its embed; anything else is refused
with a sentence."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

from tests.service.conftest import Table

HOST = "http://localhost"


def test_a_viewer_link_is_embedded_as_an_iframe_of_its_match(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    answer = client.get(
        "/oembed", query_string={"url": f"{HOST}/matches/{match.id}?step=1", "format": "json"}
    )
    assert answer.status_code == 200
    body = answer.json
    assert body["version"] == "1.0" and body["type"] == "rich" and body["provider_name"] == "tabletape"
    assert body["title"] == "Wizard: ann, bob"
    assert f'src="{HOST}/embed/{match.id}"' in body["html"]
    assert (body["width"], body["height"]) == (640, 720)
    smaller = client.get("/oembed", query_string={"url": f"{HOST}/matches/{match.id}", "maxwidth": 400}).json
    assert smaller["width"] == 400 and 'width="400"' in smaller["html"]


def test_the_viewer_page_names_its_oembed(table: Callable[..., Table], client: FlaskClient) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    page = client.get(f"/matches/{match.id}").get_data(as_text=True)
    assert 'type="application/json+oembed"' in page
    assert f"http://localhost/oembed?url=http://localhost/matches/{match.id}&amp;format=json" in page
    embed = client.get(f"/embed/{match.id}")
    assert embed.status_code == 200 and b'data-embed="1"' in embed.data and b"site" not in embed.data


def test_what_oembed_cannot_embed_is_refused_with_a_sentence(client: FlaskClient) -> None:
    cases = {
        (): 400,
        (("url", f"{HOST}/matches/nope"), ("format", "xml")): 501,
        (("url", f"{HOST}/matches/no-such-match"),): 404,
        (("url", "http://elsewhere.example/matches/abc"),): 404,
        (("url", f"{HOST}/v1/matches"),): 404,
        (("url", f"{HOST}/matches/abc"), ("maxwidth", "wide")): 400,
    }
    for query, status in cases.items():
        answer = client.get("/oembed", query_string=dict(query))
        assert answer.status_code == status, query
        assert answer.mimetype == "application/problem+json" and answer.json["detail"], query
