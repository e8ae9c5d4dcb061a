"""What gen_probe23.py, gen_probe23b.py and gen_probe23c.py share: the pair
constructors and the check-and-write step. A look-alike's two sides must be
two voices, not one text with the detail substituted."""
import json, os, sys

PAIRS = []


def alike(iid, cat, lang, form, a, b, old, new, reword=False):
    """A look-alike pair; with reword, also the rewording that keeps a's detail."""
    PAIRS.append(dict(id=iid + "-alike", label="distinct", variant="one_detail", category=cat, lang=lang, form=form,
                      a=dict(title=a[0], content=a[1]), b=dict(title=b[0], content=b[1]), **{"from": old, "to": new}))
    if reword:
        rb = (b[0].replace(new, old), b[1].replace(new, old))
        PAIRS.append(dict(id=iid + "-reworded", label="reworded", variant="rewrite", category=cat, lang=lang, form=form,
                          a=dict(title=a[0], content=a[1]), b=dict(title=rb[0], content=rb[1]), **{"from": old, "to": old}))


def reworded(iid, cat, lang, form, a, b, keep):
    PAIRS.append(dict(id=iid + "-reworded", label="reworded", variant="rewrite", category=cat, lang=lang, form=form,
                      a=dict(title=a[0], content=a[1]), b=dict(title=b[0], content=b[1]), **{"from": keep, "to": keep}))


def write(name):
    """Checks every pair (unique ids, each side holds its detail, b not a
    substitution of a) and writes them to name beside this file."""
    ids = set()
    for p in PAIRS:
        if p["id"] in ids:
            sys.exit("duplicate id " + p["id"])
        ids.add(p["id"])
        a = p["a"]["title"] + "\n" + p["a"]["content"]
        b = p["b"]["title"] + "\n" + p["b"]["content"]
        if p["from"] not in a:
            sys.exit(p["id"] + ": a lacks " + p["from"])
        if p["to"] not in b:
            sys.exit(p["id"] + ": b lacks " + p["to"])
        if a.replace(p["from"], p["to"]) == b:
            sys.exit(p["id"] + ": b is a substitution of a")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, name), "w", encoding="utf-8") as f:
        for p in PAIRS:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    n = sum(p["label"] == "distinct" for p in PAIRS)
    print("OK", n, "look-alikes,", len(PAIRS) - n, "rewordings")
