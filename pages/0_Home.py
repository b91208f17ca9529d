"""offcenter: home page of the app (streamlit run app.py)."""

import streamlit as st

from offcenter.app.charts import chart_config, plotly_chart
from offcenter.app.curve_pages import (
    PRESETS,
    TWO_CLASS_SCHEMA,
    cached_binary_curves,
    page_specs,
)
from offcenter.app.lecture_script import start_button
from offcenter.app.lesson import STEPS, step_link
from offcenter.app.navigation import ensure_router
from offcenter.app.presentation import is_on
from offcenter.viz.curves import curves_figure

ensure_router()  # a first visit straight to this page still goes through app.py
st.set_page_config(page_title="offcenter: entropies for imbalanced classes", layout="wide")
present = is_on()  # the toggle is drawn by navigation.run

st.title("offcenter")
st.write(
    "Decision trees choose their splits by how much they reduce the uncertainty of the class, "
    "measured by an entropy such as Shannon's or Gini's. Those measures are largest when all "
    "classes are equally frequent, which is the wrong reference when the classes are "
    "imbalanced: the off-centered entropy of Lallich, Lenca and Vaillant (2007) moves the "
    "maximum to a chosen distribution theta, such as the class distribution of the data. "
    "This app lets you see these measures move, grow trees with them and compare them."
)

# ------------------------------------------------------------------ the lesson
st.header("Lesson: four steps", anchor="lesson")
st.caption(
    "For a class: follow the steps in order. Each link opens a page with the settings of the "
    "step (in presentation mode when it is on); change them freely there, and come back here "
    "for the next step. **Start the lecture** walks through them in order: Next and Previous "
    "in the sidebar, or Page Down / Page Up (a presentation clicker) and the arrow keys."
)
start_button(present)
numbered = list(enumerate(STEPS, 1))
for row in (numbered[:2], numbered[2:]):  # two by two; one under the other on a phone
    for col, (i, step) in zip(st.columns(2), row):
        with col, st.container(border=True, key=f"lesson_step_{i}"):
            st.subheader(f"{i}. {step.title}", anchor=False)
            # the link right under the step's title: the first is on the first screen of a
            # 1400x900 projector in presentation mode, above the explanation it opens
            link = step_link(step, present=present)
            st.page_link(
                link.page,
                label=step.label,
                help=step.detail,
                icon=":material/arrow_forward:",
                query_params=link.query,
            )
            st.markdown(step.text)
            for formula in step.latex:
                st.latex(formula)

# in presentation mode the thumbnail takes the page's width: its type does not fit a column
left, right = (st.container(), st.container()) if present else st.columns([3, 2])
with right:
    # A live thumbnail of Figure 1: the same package functions as the "Two classes" page.
    fig1 = PRESETS["fig1"]
    values = {**TWO_CLASS_SCHEMA.defaults(), **fig1["values"]}
    raw, oc = page_specs(values)
    df = cached_binary_curves(raw + oc, values["theta"])
    thumb = curves_figure(
        df,
        theta=values["theta"],
        # a narrow column: the paper's title wrapped (it heads the legend, above the plot)
        title=fig1["title"].replace(", asymmetric", ",<br>asymmetric", 1),
        y_title="uncertainty (Shannon in bits)",
        presentation=present,
    )
    plotly_chart(
        thumb, config=chart_config("offcenter_fig1_theta_0.2"), key="home_fig1", theme=None
    )
    st.caption(
        "theta = 0.2: Shannon's entropy peaks at p = 0.5, the off-centered and the asymmetric "
        "entropies at p = theta. Open **Two classes** to move theta."
    )

with left:
    st.subheader("How to read these curves")
    st.markdown(
        "- **Uncertainty.** Take a group of examples (a node of a tree) in which a fraction p "
        "belongs to class 1. If you had to guess the class of one of them, how unsure would you "
        "be? An entropy turns the class frequencies into that uncertainty: Shannon's entropy "
        "is the average number of bits (yes/no questions) needed to name the class.\n"
        "- **Purity.** At p = 0 or p = 1 the group is *pure*: one class only, no uncertainty, "
        "every curve is at 0. A tree looks for splits that make its nodes purer: the gain of "
        "a split is how much the weighted uncertainty of the children drops below the "
        "parent's.\n"
        "- **Why the maximum is at the uniform distribution.** A rare class is surprising, but "
        "it is rarely seen; the common class is seen often but is no surprise. Averaged over "
        "the classes, the uncertainty is largest when every class is equally likely (p = 1/2 "
        "for two classes, 1/q for q classes): that is when a guess is worst.\n"
        "- **Why move it.** With imbalanced classes, say 20% positives, a node with 20% "
        "positives tells us nothing new: it looks like the whole data set. Yet Shannon's "
        "entropy calls a node with 50% positives the most uncertain, and a split that moves "
        "nodes from 20% towards 50% looks like a loss. Off-centering puts the maximum at "
        "theta = the *a priori* distribution, so any move away from it, towards more "
        "positives in particular, counts as a gain.\n"
        "- **Reading a figure.** The x axis is the frequency p of class 1 (0 to 1), the y "
        "axis the value of each measure; the dotted vertical line marks theta. Hover to read "
        "values; every curve has its own colour *and* line style."
    )

st.subheader("Pages")
CARDS = [
    (
        "pages/1_Two_classes.py",
        "Two classes",
        "The paper's boolean case. Move theta, beta and rho; reproduce Figures 1 and 2 exactly; "
        "read every curve's value at a cursor; see the derivatives and the kink at theta. You "
        "learn what off-centering does to Shannon, Gini, generalized and rank entropies.",
    ),
    (
        "pages/2_Q_classes.py",
        "q classes",
        "Any number of classes: edit the reference distribution theta, follow the curves along "
        "a slice through theta, see the peak move over the triangle of 3-class distributions, "
        "and watch the transform p -> pi -> pi* class by class.",
    ),
    (
        "pages/3_Tree.py",
        "Tree",
        "Grow a decision tree on a bundled or uploaded CSV and compare every measure's splits "
        "node by node: you learn when off-centering changes the chosen split.",
    ),
    (
        "pages/4_Compare_measures.py",
        "Compare measures",
        "Cross-validated evaluation of the measures on imbalanced data sets: you learn whether "
        "off-centering helps the minority class, and by how much.",
    ),
]
cols = st.columns(len(CARDS))
for col, (path, title, text) in zip(cols, CARDS):
    with col, st.container(border=True):
        st.page_link(path, label=title, icon=":material/arrow_forward:")
        st.write(text)

st.caption(
    "Reference: S. Lallich, P. Lenca and B. Vaillant, *Construction of an off-centered entropy "
    "for supervised learning*, ASMDA 2007 (hal-02121319). Every number drawn comes from the "
    "`offcenter` package; the pages only lay it out."
)
