<?php
/**
 * Plugin Name: Site Optimization SEO field
 * Description: Registers the meta-description field for the REST API (show_in_rest) and
 * prints it in the page head (or, when it is empty, the post's hand-written excerpt), the
 * way an SEO plugin exposes its field.
 */
add_action('init', function () {
    foreach (['post', 'page'] as $type) {
        register_post_meta($type, 'sos_meta_description', [
            'type' => 'string',
            'single' => true,
            'default' => '',
            'show_in_rest' => true,
            'sanitize_callback' => 'sanitize_text_field',
            'auth_callback' => function () {
                return current_user_can('edit_posts');
            },
        ]);
    }
});

add_action('wp_head', function () {
    if (!is_singular()) {
        return;
    }
    $post = get_queried_object();
    $description = get_post_meta($post->ID, 'sos_meta_description', true);
    if ($description === '') {
        // Like SEO plugins' default template: the hand-written excerpt (never an automatic one).
        $description = $post->post_excerpt;
    }
    if ($description !== '') {
        echo '<meta name="description" content="' . esc_attr($description) . '">' . "\n";
    }
}, 1);
