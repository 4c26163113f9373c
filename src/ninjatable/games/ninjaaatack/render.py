from rich.pretty import Pretty
def render(view):
    return Pretty(view)
