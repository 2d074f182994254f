"""Graph analytics: centrality, hierarchical Leiden communities, stable ids, summaries.

A pipeline of small stages (:mod:`.graph_input` → :mod:`.centrality` → :mod:`.communities` →
:mod:`.stable_ids` → :mod:`.summaries`), run by :mod:`graphrag_core.services.analytics`. Every
stage is deterministic: inputs sorted, seeds from ``AnalyticsSettings``.
"""
