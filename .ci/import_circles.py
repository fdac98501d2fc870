"""The largest import circles among the apps' modules (issue 30), counting the
imports written inside functions too, as `lint-imports` does (grimp, the graph
import-linter builds). Prints each circle's size and the apps it spans, largest
first; the layers contract keeps every circle inside one app.

    .venv/bin/python .ci/import_circles.py [HOW_MANY]
"""

import sys
from collections import Counter
from pathlib import Path

import grimp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout

APPS = (
    "operations",
    "fieldwork",
    "portal",
    "reporting",
    "ledger",
    "enforcement",
    "inspections",
)
APPS += ("cases", "intake", "deadlines", "outbox", "documents")
APPS += ("jobs", "limits", "kernel")


def circles(graph, modules):
    """The strongly connected components of the import graph (Tarjan, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = 0
    for root in modules:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    circle = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        circle.append(member)
                        if member == node:
                            break
                    found.append(sorted(circle))
    return sorted(found, key=len, reverse=True)


def main(how_many: int = 3) -> None:
    built = grimp.build_graph(*APPS, include_external_packages=False)
    modules = sorted(m for m in built.modules if ".migrations" not in m)
    known = set(modules)
    graph = {
        m: sorted(n for n in built.find_modules_directly_imported_by(m) if n in known)
        for m in modules
    }
    for circle in circles(graph, modules)[:how_many]:
        if len(circle) < 2:
            break
        apps = Counter(m.split(".")[0] for m in circle)
        print(
            f"{len(circle)} modules ({', '.join(f'{a} {n}' for a, n in apps.items())}):"
        )
        print("  " + " ".join(circle))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
