"""Preview → expand → context: what an agent reads about a question under a token budget.

Pure logic only (it reads a ``CampaignView``, community views and a ``TokenCounter``):

- :mod:`~ranking.context.models`: the values the use cases return (pydantic, frozen);
- :mod:`~ranking.context.handles`: stable handles (``e:<entity>``, ``c:<community>``,
  ``p:<chunk>``; citations of changes are ``ch:<change>``);
- :mod:`~ranking.context.entities`, :mod:`~ranking.context.communities`,
  :mod:`~ranking.context.passages`, :mod:`~ranking.context.changes`: one item's preview and
  its full expansion, as cited lines; :mod:`~ranking.context.items` dispatches on the handle;
- :mod:`~ranking.context.stale`: community findings patched from the changelog overlay;
- :mod:`~ranking.context.markdown`: the one Markdown rendering whose tokens are counted;
- :mod:`~ranking.context.budget`: the trimming cascade that keeps an expansion in budget;
- :mod:`~ranking.context.assemble`: preview and context blocks under their token counts;
- :mod:`~ranking.context.answer`: checking a model's answer, sentence by sentence, for cites.

The use cases (reading the store, the views, the analytics) are in
:mod:`graphrag_core.services.context` and :mod:`graphrag_core.services.answers`.
"""
