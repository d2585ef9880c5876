"""Naive reference implementations of LMNN's formulas (tests only).

Deliberately independent of ``harness.methods._lmnn_*`` and ``harness.metrics``: full
distance matrices, stable argsorts, and literal Python loops over triples, straight
from the thesis' equations (2.11), (2.12), (2.14) and the tie rule of 2.1.6. Only for
a few dozen points.
"""

from __future__ import annotations

import numpy as np


def sq_dist(L, a, b) -> float:
    v = L @ (np.asarray(a, float) - np.asarray(b, float))
    return float(v @ v)


def naive_targets(X, y, k):
    """``k`` nearest same-class points by Euclidean distance (stable argsort, self excluded)."""
    X, y = np.asarray(X, float), np.asarray(y)
    out = []
    for i in range(len(X)):
        same = [j for j in np.argsort(((X - X[i]) ** 2).sum(1), kind="stable")
                if j != i and y[j] == y[i]]
        out.append(same[:k])
    return np.array(out)


def naive_loss(X, y, L, targets, mu):
    """Eq. (2.11) by triple loops; also the number of strictly positive hinges."""
    X, y = np.asarray(X, float), np.asarray(y)
    pull = push = 0.0
    active = 0
    for i in range(len(X)):
        for j in targets[i]:
            dij = sq_dist(L, X[i], X[j])
            pull += dij
            for l in range(len(X)):
                if y[l] != y[i]:
                    h = 1.0 + dij - sq_dist(L, X[i], X[l])
                    if h > 0:
                        push += h
                        active += 1
    return (1 - mu) * pull + mu * push, active


def naive_grad_M(X, y, L, targets, mu):
    """Eq. (2.14): (1 - mu) sum C_ij + mu sum_active (C_ij - C_il), outer products."""
    X, y = np.asarray(X, float), np.asarray(y)
    G = np.zeros((X.shape[1], X.shape[1]))
    for i in range(len(X)):
        for j in targets[i]:
            Cij = np.outer(X[i] - X[j], X[i] - X[j])
            G += (1 - mu) * Cij
            for l in range(len(X)):
                if y[l] != y[i] and 1.0 + sq_dist(L, X[i], X[j]) - sq_dist(L, X[i], X[l]) > 0:
                    G += mu * (Cij - np.outer(X[i] - X[l], X[i] - X[l]))
    return G


def naive_energies(Xtr, ytr, Xte, L, k, mu, targets):
    """Eq. (2.12) for every test point and class (sorted labels), by loops."""
    Xtr, Xte, ytr = np.asarray(Xtr, float), np.asarray(Xte, float), np.asarray(ytr)
    classes = sorted(set(ytr.tolist()))
    E = np.zeros((len(Xte), len(classes)))
    for t, xt in enumerate(Xte):
        for ci, c in enumerate(classes):
            same = [j for j in range(len(Xtr)) if ytr[j] == c]
            tn = sorted(same, key=lambda j: sq_dist(L, xt, Xtr[j]))[:k]
            pull = sum(sq_dist(L, xt, Xtr[j]) for j in tn)
            push = 0.0
            for j in tn:  # i = t
                for l in range(len(Xtr)):
                    if ytr[l] != c:
                        push += max(0.0, 1 + sq_dist(L, xt, Xtr[j]) - sq_dist(L, xt, Xtr[l]))
            for i in range(len(Xtr)):  # l = t
                if ytr[i] != c:
                    for j in targets[i]:
                        push += max(0.0, 1 + sq_dist(L, Xtr[i], Xtr[j]) - sq_dist(L, Xtr[i], xt))
            E[t, ci] = (1 - mu) * pull + mu * push
    return E, np.array(classes)


def _tie_rule_vote(order, ytr, k):
    """The label the ``k`` first of ``order`` vote for, shrinking ``k`` until one class
    has the most votes (thesis 2.1.6)."""
    for m in range(k, 0, -1):
        votes = {}
        for j in order[:m]:
            votes[ytr[j]] = votes.get(ytr[j], 0) + 1
        best = max(votes.values())
        winners = [c for c, v in votes.items() if v == best]
        if len(winners) == 1:
            return winners[0]


def naive_knn_predict(Xtr, ytr, Xte, k, exclude_self=False):
    """k-NN with the tie rule of 2.1.6 (shrink k until one class has the most votes)."""
    Xtr, Xte, ytr = np.asarray(Xtr, float), np.asarray(Xte, float), np.asarray(ytr)
    pred = []
    for t, xt in enumerate(Xte):
        order = [j for j in np.argsort(((Xtr - xt) ** 2).sum(1), kind="stable")
                 if not (exclude_self and j == t)]
        pred.append(_tie_rule_vote(order, ytr, k))
    return np.array(pred)


# --------------------------------------------------------------------------- #
# MM-LMNN (thesis 2.1.8): one metric per class, labels are the codes 0 .. c-1
# --------------------------------------------------------------------------- #
def naive_mm_loss(X, y, Ls, targets, mu, groups=None):
    """The SDP of 2.1.8 with hinges, by triple loops; D(a, b) = |L_{g_b}(x_a - x_b)|^2
    (eq. 2.17) with g the groups (default: the labels). Also the number of strictly
    positive hinges."""
    X, y = np.asarray(X, float), np.asarray(y)
    g = y if groups is None else np.asarray(groups)
    pull = push = 0.0
    active = 0
    for i in range(len(X)):
        for j in targets[i]:
            dij = sq_dist(Ls[g[j]], X[i], X[j])
            pull += dij
            for l in range(len(X)):
                if y[l] != y[i]:
                    h = 1.0 + dij - sq_dist(Ls[g[l]], X[i], X[l])
                    if h > 0:
                        push += h
                        active += 1
    return (1 - mu) * pull + mu * push, active


def naive_mm_knn_predict(Xtr, ytr, Xte, Ls, k, exclude_self=False, groups=None):
    """k-NN under D(t, j) = |L_{g_j}(x_t - x_j)|^2 (g the groups, default the labels)
    with the tie rule of 2.1.6."""
    Xtr, Xte, ytr = np.asarray(Xtr, float), np.asarray(Xte, float), np.asarray(ytr)
    g = ytr if groups is None else np.asarray(groups)
    pred = []
    for t, xt in enumerate(Xte):
        d = np.array([sq_dist(Ls[g[j]], xt, Xtr[j]) for j in range(len(Xtr))])
        order = [j for j in np.argsort(d, kind="stable") if not (exclude_self and j == t)]
        pred.append(_tie_rule_vote(order, ytr, k))
    return np.array(pred)


def naive_mm_energies(Xtr, ytr, Xte, Ls, k, mu, targets):
    """Eq. (2.12) with D(a, b) = |L_{y_b}(x_a - x_b)|^2, the test point labelled c."""
    Xtr, Xte, ytr = np.asarray(Xtr, float), np.asarray(Xte, float), np.asarray(ytr)
    n_classes = len(Ls)
    E = np.zeros((len(Xte), n_classes))
    for t, xt in enumerate(Xte):
        for c in range(n_classes):
            same = [j for j in range(len(Xtr)) if ytr[j] == c]
            tn = sorted(same, key=lambda j: sq_dist(Ls[c], xt, Xtr[j]))[:k]
            pull = sum(sq_dist(Ls[c], xt, Xtr[j]) for j in tn)
            push = 0.0
            for j in tn:  # i = t
                for l in range(len(Xtr)):
                    if ytr[l] != c:
                        push += max(0.0, 1 + sq_dist(Ls[c], xt, Xtr[j])
                                    - sq_dist(Ls[ytr[l]], xt, Xtr[l]))
            for i in range(len(Xtr)):  # l = t, measured in t's metric c
                if ytr[i] != c:
                    for j in targets[i]:
                        push += max(0.0, 1 + sq_dist(Ls[ytr[j]], Xtr[i], Xtr[j])
                                    - sq_dist(Ls[c], Xtr[i], xt))
            E[t, c] = (1 - mu) * pull + mu * push
    return E
